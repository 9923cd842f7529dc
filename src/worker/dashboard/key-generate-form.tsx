/**
 * The "Generate a key" form: name, mode (this deployment's only; the other is shown, disabled,
 * with where to get it), and permissions (all scopes except admin, or a restricted set). Each
 * field error is written next to its field and tied to it with `aria-describedby`.
 */
import { KEY_MODES, type KeyMode } from "../../common/auth/api-key";
import { SCOPE_WORDS } from "../auth/oauth/scope-words";
import { ADMIN_SCOPE, SCOPES } from "../../common/auth/scopes";
import { CsrfField } from "../web/csrf";
import type { WebSession } from "../web/session";
import { DASHBOARD_PATHS } from "./context";
import { FORM_ID_FIELD } from "./form-once";
import { MAX_KEY_NAME_LENGTH } from "../auth/account-views";
import type { KeyFormField, KeyFormValues } from "./key-form";
import { describedBy, FieldError } from "./display";

const MODE_WORDS: Record<KeyMode, string> = {
  live: "Live: production access (sk_live_…)",
  test: "Test: the sandbox deployment only, for trying things out (sk_test_…)",
};

export function KeyGenerateForm(props: {
  session: WebSession;
  formId: string;
  deploymentMode: KeyMode;
  adminCleared: boolean;
  values: KeyFormValues;
  errors: Partial<Record<KeyFormField, string>>;
}) {
  const { values, errors } = props;
  const otherMode = props.deploymentMode === "live" ? "test" : "live";
  const offered = SCOPES.filter((scope) => scope !== ADMIN_SCOPE || props.adminCleared);
  return (
    <form method="post" action={DASHBOARD_PATHS.keys} class="stacked" novalidate>
      <CsrfField token={props.session.csrfToken} />
      <input type="hidden" name={FORM_ID_FIELD} value={props.formId} />

      <label for="key-name">
        Name <span class="optional">(optional)</span>
      </label>
      <input
        id="key-name"
        name="name"
        type="text"
        maxlength={MAX_KEY_NAME_LENGTH}
        autocomplete="off"
        value={values.name}
        aria-invalid={errors.name ? "true" : undefined}
        aria-describedby={describedBy("key-name-hint", errors.name && "key-name-error")}
      />
      <p id="key-name-hint" class="hint">
        Where the key will be used, such as “CI” or “Billing service”.
      </p>
      <FieldError id="key-name-error" message={errors.name} />

      <fieldset aria-describedby={describedBy("mode-hint", errors.mode && "mode-error")}>
        <legend>Mode</legend>
        {KEY_MODES.map((mode) => (
          <label class="choice">
            <input
              type="radio"
              name="mode"
              value={mode}
              checked={values.mode === mode}
              disabled={mode !== props.deploymentMode}
            />
            <span>{MODE_WORDS[mode]}</span>
          </label>
        ))}
        <p id="mode-hint" class="hint">
          This dashboard belongs to the {props.deploymentMode === "live" ? "production" : "sandbox"} deployment, so it
          creates {props.deploymentMode} keys.{" "}
          {otherMode === "test"
            ? "Test keys are created on the sandbox's dashboard."
            : "Live keys are created on the production dashboard."}
        </p>
        <FieldError id="mode-error" message={errors.mode} />
      </fieldset>

      <fieldset aria-describedby={describedBy(errors.scopes && "scopes-error")}>
        <legend>Permissions</legend>
        <label class="choice">
          <input type="radio" name="access" value="all" checked={values.access === "all"} />
          <span>All scopes except admin</span>
        </label>
        <label class="choice">
          <input type="radio" name="access" value="restricted" checked={values.access === "restricted"} />
          <span>Restricted: only the scopes ticked below</span>
        </label>
        <div class="scope-choices">
          {offered.map((scope) => (
            <label class="choice">
              <input type="checkbox" name="scopes" value={scope} checked={values.scopes.includes(scope)} />
              <span>
                {SCOPE_WORDS[scope]} <code>{scope}</code>
              </span>
            </label>
          ))}
        </div>
        {props.adminCleared ? null : (
          <p class="hint">The admin scope is available once an operator approves it for your account.</p>
        )}
        <FieldError id="scopes-error" message={errors.scopes} />
      </fieldset>

      <div class="actions">
        <button class="primary" type="submit">
          Generate key
        </button>
      </div>
    </form>
  );
}
