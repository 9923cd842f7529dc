/**
 * Email + password → account, for the sign-in form (src/worker/web/login.tsx). Two throttles, decided
 * before any password is checked:
 * - per client address, across emails (password spraying): src/worker/limits/sign-in-limit.ts;
 * - per email, whether or not an account has it (sign-in-attempts.ts, in the AccountDirectory).
 *
 * A known and an unknown email take the same path: the same two Durable Object calls (an unknown
 * email asks a decoy account object, which has no account) and one PBKDF2 check of the same cost
 * (against a decoy hash), and get the same answers, so neither the response nor its time says
 * which emails have accounts.
 *
 * @example
 * const result = await signIn(env, email, password, clientAddressOf(request, env.CLIENT_ADDRESS_SOURCE));
 */
import { addressMayTrySignIn, SIGN_IN_WINDOW_SECONDS } from "../limits/sign-in-limit";
import type { AccountView } from "./account-views";
import { accountDirectory, accountObject } from "./accounts";
import { DECOY_PASSWORD_RECORD, verifyPassword } from "./password";

/** Never an account id (those are `acct_…`): an account object that stays empty. */
export const DECOY_ACCOUNT = "sign-in-decoy";

export type SignInResult =
  | { ok: true; account: AccountView }
  | { ok: false; reason: "invalid" | "locked"; retryAfterSeconds: number };

const locked = (retryAfterSeconds: number): SignInResult => ({ ok: false, reason: "locked", retryAfterSeconds });

export async function signIn(
  env: Env,
  email: string,
  password: string,
  clientAddress: string | null,
): Promise<SignInResult> {
  if (!(await addressMayTrySignIn(env.SIGN_IN_LIMITER, clientAddress))) return locked(SIGN_IN_WINDOW_SECONDS);
  const directory = accountDirectory(env);
  const admission = await directory.admitSignIn(email);
  if (!admission.admitted) return locked(admission.retryAfterSeconds);
  const stored = await accountObject(env, admission.accountId ?? DECOY_ACCOUNT).signInRecord();
  const matches = await verifyPassword(password, stored?.password ?? DECOY_PASSWORD_RECORD);
  if (matches && stored && admission.accountId) {
    await directory.signInSucceeded(email);
    return { ok: true, account: stored.account };
  }
  return admission.lockSeconds > 0
    ? locked(admission.lockSeconds)
    : { ok: false, reason: "invalid", retryAfterSeconds: 0 };
}
