/**
 * Checks a customer's email and password with the account code (src/auth): the directory maps the
 * email to the account, whose Durable Object verifies the PBKDF2 hash and applies its lockout. An
 * unknown email costs the same work as a wrong password and gets the same answer.
 */
import { DIRECTORY_NAME } from "../auth/account-directory";
import { burnPasswordCheck } from "../auth/password";

export type SignInResult =
  | { ok: true; account: { id: string; email: string } }
  | { ok: false; reason: "invalid" | "locked"; retryAfterSeconds: number };

export async function signIn(env: Env, email: string, password: string): Promise<SignInResult> {
  const accountId = await env.ACCOUNT_DIRECTORY.getByName(DIRECTORY_NAME).lookup(email);
  if (!accountId) {
    await burnPasswordCheck(password);
    return { ok: false, reason: "invalid", retryAfterSeconds: 0 };
  }
  const check = await env.ACCOUNTS.getByName(accountId).verifyPassword(password);
  if (!check.ok) return { ok: false, reason: check.reason, retryAfterSeconds: check.retryAfterSeconds };
  return { ok: true, account: { id: check.account.id, email: check.account.email } };
}
