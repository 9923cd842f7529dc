/**
 * One-time form ids for the posts that create something. The "Generate a key" response shows the
 * secret, so it cannot redirect (the secret must never reach a GET URL); reloading it would post
 * the form again. Each rendered form carries a random id; the first post claims it, a repeat is
 * recognised and creates nothing. Stored in OAUTH_KV with the web sessions, expiring with them.
 */
import { sha256Hex } from "../../common/sha256";
import { randomToken } from "../web/cookies";
import { SIGNED_IN_SESSION_SECONDS } from "../web/session";

export const FORM_ID_FIELD = "form_id";
const FORM_ID = /^[A-Za-z0-9_-]{22,64}$/;
const KEY_PREFIX = "dashboard-form:";

export const newFormId = randomToken;

/** One posted form value (a string, or a file for a file input). */
export type FormValue = ReturnType<FormData["get"]>;

export type FormClaim = "first" | "repeat" | "invalid";

/** Claims a form id for an account: "first" once, "repeat" after that. */
export async function claimForm(kv: KVNamespace, accountId: string, formId: FormValue): Promise<FormClaim> {
  if (typeof formId !== "string" || !FORM_ID.test(formId)) return "invalid";
  const key = KEY_PREFIX + (await sha256Hex(`${accountId}:${formId}`));
  if ((await kv.get(key)) !== null) return "repeat";
  await kv.put(key, "1", { expirationTtl: SIGNED_IN_SESSION_SECONDS });
  return "first";
}
