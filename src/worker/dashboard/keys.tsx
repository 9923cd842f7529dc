/**
 * The API keys pages. Keys are created, listed and revoked through the account's Durable Object
 * (src/worker/auth/account-object.ts), the same calls the self-service API and the operator CLI make,
 * always for the signed-in account: a key id of another account is simply not found.
 *
 * - GET  /dashboard/keys                the list, the Generate form, the rotation recipe
 * - POST /dashboard/keys                generate; the response itself shows the secret, once
 * - GET  /dashboard/keys/:id/revoke     "Revoke this key?" (a confirmation that needs no script)
 * - POST /dashboard/keys/:id/revoke     revoke, then 303 back to the list (RFC 9110 §15.4.4)
 */
import type { Context, Hono } from "hono";
import { accountObject } from "../auth/accounts";
import { MAX_ACTIVE_KEYS } from "../auth/account-object";
import type { KeyView, Refusal } from "../auth/account-views";
import { KEY_ID_PATTERN } from "../../common/auth/ids";
import { CsrfField } from "../web/csrf";
import { DASHBOARD_PATHS, revokeKeyPath, signedInSession, type DashboardEnv } from "./context";
import { ConfirmPage } from "./confirm-page";
import { maskedKey } from "./display";
import { claimForm, newFormId } from "./form-once";
import { emptyKeyForm, readKeyForm } from "./key-form";
import { keyTitle } from "./key-table";
import { KeysPage, type KeysPageProps } from "./keys-page";
import { renderDashboard, renderDashboardError, type PageStatus } from "./page";

type KeysView = Partial<Pick<KeysPageProps, "form" | "formErrors" | "created" | "message">> & {
  /** After a revocation: the key to confirm as revoked, when it is this account's. */
  revokedKeyId?: string;
};

async function renderKeys(c: Context<DashboardEnv>, view: KeysView, status: PageStatus = 200) {
  const listed = await accountObject(c.env, c.var.account.id).listKeys();
  if (!listed.ok) return renderDashboardError(c, 404, "Account not found", listed.detail);
  const revoked = view.revokedKeyId
    ? listed.value.find((key) => key.id === view.revokedKeyId && key.status === "revoked")
    : undefined;
  const message = revoked
    ? { kind: "success" as const, text: `Key ${keyTitle(revoked)} is revoked. Requests with it now fail with 401.` }
    : view.message;
  const page = (
    <KeysPage
      account={c.var.account}
      session={signedInSession(c)}
      origin={new URL(c.req.url).origin}
      deploymentMode={c.env.KEY_MODE}
      keys={listed.value}
      formId={newFormId()}
      form={view.form ?? emptyKeyForm(c.env.KEY_MODE)}
      formErrors={view.formErrors}
      created={view.created}
      message={message}
    />
  );
  return renderDashboard(c, page, status);
}

/** Why a key was not created, in the dashboard's words (the spec's explanation for the limit). */
export function refusalMessage(refusal: Refusal): { status: PageStatus; text: string } {
  switch (refusal.code) {
    case "key_limit_reached":
      return {
        status: 409,
        // Short: the rotation recipe is on the same page, in its own panel.
        text: `No key was generated: you already have ${MAX_ACTIVE_KEYS} active keys, the most an account can have. Revoke one you no longer use, then generate again. To replace a key without downtime, see Rotating a key.`,
      };
    case "admin_not_approved":
      return {
        status: 403,
        text: "No key was generated: the admin scope needs an operator's approval for your account. Choose other scopes, or ask an operator.",
      };
    default:
      return { status: 400, text: `No key was generated. ${refusal.detail}` };
  }
}

async function generateKey(c: Context<DashboardEnv>) {
  const form = await c.req.formData();
  const reading = readKeyForm(form, c.env.KEY_MODE);
  if (!reading.ok) return renderKeys(c, { form: reading.values, formErrors: reading.errors }, 400);
  const claim = await claimForm(c.env.OAUTH_KV, c.var.account.id, form.get("form_id"));
  if (claim !== "first") {
    const text =
      claim === "repeat"
        ? "This form was already sent (perhaps the page was reloaded), so no second key was generated. The key it created is in the list, and its secret was shown once; if you did not copy it, revoke that key and generate a new one."
        : "The form is out of date, so no key was generated. Try again with this fresh form.";
    return renderKeys(c, { form: reading.values, message: { kind: "error", text } }, 409);
  }
  const created = await accountObject(c.env, c.var.account.id).createKey(reading.request);
  if (!created.ok) {
    const refusal = refusalMessage(created);
    return renderKeys(c, { form: reading.values, message: { kind: "error", text: refusal.text } }, refusal.status);
  }
  return renderKeys(c, { created: created.value });
}

async function showKeys(c: Context<DashboardEnv>) {
  return renderKeys(c, { revokedKeyId: c.req.query("revoked") });
}

/** The signed-in account's key with this id, or null (malformed, unknown, or another account's). */
async function ownKey(c: Context<DashboardEnv>, keyId: string): Promise<KeyView | null> {
  if (!KEY_ID_PATTERN.test(keyId)) return null;
  const listed = await accountObject(c.env, c.var.account.id).listKeys();
  return listed.ok ? (listed.value.find((key) => key.id === keyId) ?? null) : null;
}

const keyNotFound = (c: Context<DashboardEnv>) =>
  renderDashboardError(
    c,
    404,
    "Key not found",
    "Your account has no key with that id. Nothing was changed. Pick the key from your list of API keys.",
  );

async function confirmRevoke(c: Context<DashboardEnv>) {
  const key = await ownKey(c, c.req.param("keyId") ?? "");
  if (!key) return keyNotFound(c);
  if (key.status === "revoked") return c.redirect(`${DASHBOARD_PATHS.keys}?revoked=${key.id}`, 303);
  const page = (
    <ConfirmPage
      account={c.var.account}
      session={signedInSession(c)}
      current="keys"
      title={`Revoke key ${keyTitle(key)}?`}
      cancelHref={DASHBOARD_PATHS.keys}
      form={
        <form method="post" action={revokeKeyPath(key.id)}>
          <CsrfField token={signedInSession(c).csrfToken} />
          <button class="danger" type="submit">
            Revoke key
          </button>
        </form>
      }
    >
      <p>
        Every request made with <code>{maskedKey(key)}</code> will fail with 401 from the moment you revoke it,
        everywhere. This cannot be undone.
      </p>
      <p>Rotating? Make sure the new key is deployed and working before you revoke this one.</p>
    </ConfirmPage>
  );
  return renderDashboard(c, page);
}

async function revokeKey(c: Context<DashboardEnv>) {
  const keyId = c.req.param("keyId") ?? "";
  if (!KEY_ID_PATTERN.test(keyId)) return keyNotFound(c);
  const revoked = await accountObject(c.env, c.var.account.id).revokeKey(keyId);
  if (!revoked.ok)
    return revoked.code === "key_not_found"
      ? keyNotFound(c)
      : renderDashboardError(c, 400, "Key not revoked", revoked.detail);
  return c.redirect(`${DASHBOARD_PATHS.keys}?revoked=${keyId}`, 303);
}

export function registerKeyPages(dashboard: Hono<DashboardEnv>): void {
  dashboard.get(DASHBOARD_PATHS.keys, showKeys);
  dashboard.post(DASHBOARD_PATHS.keys, generateKey);
  dashboard.get(revokeKeyPath(":keyId"), confirmRevoke);
  dashboard.post(revokeKeyPath(":keyId"), revokeKey);
}
