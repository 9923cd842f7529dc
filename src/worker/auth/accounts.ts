/**
 * The edge's door to accounts: typed calls to the AccountDirectory (email → id) and to each
 * account's AccountObject. The sign-in check is sign-in.ts.
 *
 * @example
 * const created = await createAccount(env, { email, password, name, roles: ["customer"] });
 */
import { Problem } from "../http/problem";
import { DIRECTORY_NAME } from "./account-directory";
import type { AccountView, Outcome, Role } from "./account-views";

export const accountObject = (env: Env, accountId: string) => env.ACCOUNTS.getByName(accountId);
export const accountDirectory = (env: Env) => env.ACCOUNT_DIRECTORY.getByName(DIRECTORY_NAME);

/** The account id registered under this email on this deployment, or null. */
export async function findAccountByEmail(env: Env, email: string): Promise<string | null> {
  return accountDirectory(env).lookup(email);
}

/** Turns a refusal from an account object into the Problem a route throws. */
export function outcomeValue<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Problem(outcome.code, outcome.detail, outcome.extra ? { extra: outcome.extra } : {});
  return outcome.value;
}

/** Claims the email in the directory, then initializes the account's object (undone if that fails). */
export async function createAccount(
  env: Env,
  input: { email: string; password: string; name: string; roles: Role[]; id?: string },
): Promise<Outcome<AccountView>> {
  const directory = accountDirectory(env);
  const registered = await directory.register({ email: input.email, name: input.name, id: input.id });
  if (!registered.ok) return registered;
  const { id, email } = registered.value;
  try {
    const created = await accountObject(env, id).initialize({
      id,
      email,
      name: input.name,
      roles: input.roles,
      password: input.password,
    });
    if (!created.ok) await directory.unregister(id);
    return created;
  } catch (error) {
    await directory.unregister(id);
    throw error;
  }
}
