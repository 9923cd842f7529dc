/**
 * The profile page: the customer profile that GET /v2/customer shows (same record, same rules),
 * as a form. Each field's error is next to it and tied to it with `aria-describedby`; the form
 * carries the CSRF token and the profile's version, so an edit made elsewhere in between is not
 * overwritten.
 */
import type { AccountView } from "../auth/account-views";
import { CsrfField } from "../web/csrf";
import type { WebSession } from "../web/session";
import { DASHBOARD_PATHS } from "./context";
import { describedBy, FieldError } from "./display";
import { DashboardPage, Notice } from "./page";
import type { ProfileField, ProfileFormErrors, ProfileFormValues } from "./profile-form";

export const VERSION_FIELD = "version";

const LABELS: Record<ProfileField, { label: string; hint?: string; autocomplete: string; optional?: boolean }> = {
  name: { label: "Name", autocomplete: "name" },
  email: {
    label: "Contact email",
    hint: "Recorded as you type it and not verified; you keep signing in with your account's email.",
    autocomplete: "email",
  },
  phone: { label: "Phone", hint: "International format, e.g. +41446681800.", autocomplete: "tel", optional: true },
  line1: { label: "Address line 1", autocomplete: "address-line1" },
  line2: { label: "Address line 2", autocomplete: "address-line2", optional: true },
  city: { label: "City", autocomplete: "address-level2" },
  postal_code: { label: "Postal code", autocomplete: "postal-code" },
  country: { label: "Country", hint: "Two-letter code, e.g. FR, CH, GB.", autocomplete: "country" },
  language: { label: "Language", hint: "e.g. en, fr or de-CH.", autocomplete: "language" },
};

function Field(props: { name: ProfileField; values: ProfileFormValues; errors: ProfileFormErrors }) {
  const { label, hint, autocomplete, optional } = LABELS[props.name];
  const id = `profile-${props.name}`;
  const error = props.errors[props.name];
  return (
    <>
      <label for={id}>
        {label} {optional ? <span class="optional">(optional)</span> : null}
      </label>
      <input
        id={id}
        name={props.name}
        type="text"
        autocomplete={autocomplete}
        value={props.values[props.name]}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={describedBy(hint && `${id}-hint`, error && `${id}-error`)}
      />
      {hint ? (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </>
  );
}

export function ProfilePage(props: {
  account: AccountView;
  session: WebSession;
  version: number;
  values: ProfileFormValues;
  errors: ProfileFormErrors;
  notice?: { kind: "success" | "error"; text: string };
}) {
  const field = (name: ProfileField) => <Field name={name} values={props.values} errors={props.errors} />;
  return (
    <DashboardPage title="Profile" current="profile" account={props.account} session={props.session}>
      <h1>Profile</h1>
      <p>What apps with the profile permissions see and change, and where your orders are shipped by default.</p>
      {props.notice ? (
        <Notice kind={props.notice.kind}>
          <p>{props.notice.text}</p>
        </Notice>
      ) : null}
      <form method="post" action={DASHBOARD_PATHS.profile} class="stacked" novalidate>
        <CsrfField token={props.session.csrfToken} />
        <input type="hidden" name={VERSION_FIELD} value={String(props.version)} />
        {field("name")}
        {field("email")}
        {field("phone")}
        <fieldset>
          <legend>Shipping address</legend>
          <p class="hint">Leave every line empty to have no address on file.</p>
          {field("line1")}
          {field("line2")}
          {field("city")}
          {field("postal_code")}
          {field("country")}
        </fieldset>
        <fieldset>
          <legend>Preferences</legend>
          {field("language")}
          <label class="choice">
            <input type="checkbox" name="marketing_emails" value="yes" checked={props.values.marketing_emails} />
            <span>Send me offers by email</span>
          </label>
        </fieldset>
        <div class="actions">
          <button class="primary" type="submit">
            Save profile
          </button>
        </div>
      </form>
    </DashboardPage>
  );
}
