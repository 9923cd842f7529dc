/**
 * The API keys page: an outcome message, the new key's secret (only in the response that created
 * it), the keys, the Generate form and the rotation recipe of the authentication spec (rule 3).
 */
import type { KeyMode } from "../../common/auth/api-key";
import { MAX_ACTIVE_KEYS } from "../auth/account-object";
import type { AccountView, KeyView } from "../auth/account-views";
import type { WebSession } from "../web/session";
import { KeyGenerateForm } from "./key-generate-form";
import type { KeyFormField, KeyFormValues } from "./key-form";
import { KeyTable } from "./key-table";
import { NewKeyPanel } from "./new-key-panel";
import { DashboardPage, Notice, PageMessage } from "./page";

export interface KeysPageProps {
  account: AccountView;
  session: WebSession;
  origin: string;
  deploymentMode: KeyMode;
  keys: readonly KeyView[];
  formId: string;
  form: KeyFormValues;
  formErrors?: Partial<Record<KeyFormField, string>>;
  created?: { key: KeyView; secret: string };
  message?: { kind: "success" | "error"; text: string };
}

const ROTATION_STEPS = [
  "Generate a new key on this page.",
  "Deploy the new key everywhere the old one is used. Both keys work in the meantime.",
  "Revoke the old key. From that moment it fails with 401 everywhere.",
] as const;

function RotationRecipe() {
  return (
    <section class="panel" aria-labelledby="rotate-heading">
      <h2 id="rotate-heading">Rotating a key</h2>
      <p>Up to {MAX_ACTIVE_KEYS} keys can be active at once, so a key can be replaced without downtime:</p>
      <ol>
        {ROTATION_STEPS.map((step) => (
          <li>{step}</li>
        ))}
      </ol>
    </section>
  );
}

export function KeysPage(props: KeysPageProps) {
  const active = props.keys.filter((key) => key.status === "active").length;
  const hasFieldErrors = props.formErrors && Object.keys(props.formErrors).length > 0;
  return (
    <DashboardPage title="API keys" current="keys" account={props.account} session={props.session}>
      <h1>API keys</h1>
      <p class="lead">
        Authenticate requests with <code>Authorization: Bearer &lt;key&gt;</code>. Live keys reach production; test keys
        reach the sandbox only.
      </p>
      <PageMessage message={props.message} />
      {hasFieldErrors ? (
        <Notice kind="error">
          <p>
            The key was not generated. Fix the fields marked in <a href="#generate-heading">Generate a key</a> and try
            again.
          </p>
        </Notice>
      ) : null}
      {props.created ? (
        <NewKeyPanel keyView={props.created.key} secret={props.created.secret} origin={props.origin} />
      ) : null}

      <section aria-labelledby="keys-heading">
        <div class="section-heading">
          <h2 id="keys-heading">Your keys</h2>
          <p class="count">
            {active} of {MAX_ACTIVE_KEYS} active
          </p>
        </div>
        <KeyTable keys={props.keys} />
      </section>

      <div class="columns">
        <section class="panel" aria-labelledby="generate-heading">
          <h2 id="generate-heading">Generate a key</h2>
          {active >= MAX_ACTIVE_KEYS ? (
            <p class="notice">
              You have {active} active keys, the most an account can have at once. A new key will be refused until you
              revoke one.
            </p>
          ) : null}
          <KeyGenerateForm
            session={props.session}
            formId={props.formId}
            deploymentMode={props.deploymentMode}
            adminCleared={props.account.admin_approved}
            values={props.form}
            errors={props.formErrors ?? {}}
          />
        </section>
        <RotationRecipe />
      </div>
    </DashboardPage>
  );
}
