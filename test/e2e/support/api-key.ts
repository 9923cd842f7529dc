/**
 * Every e2e server gets an API key of its deployment's mode (live on production, test on the
 * sandbox), made through the operator API that `npm run operator` drives, so that e2e requests and
 * CLI calls authenticate like a customer's. `e2eFetch` and `pullCatalog` add it.
 */
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { expectDefined } from "../../../src/common/expect";

const keys = new Map<string, string>();

/**
 * The worker secrets for a test server, in an --env-file: the caller's OPERATOR_SECRET if set, else
 * a fresh one, a fresh OAUTH_TOKEN_KEY (seals OAuth codes and tokens) and CURSOR_KEY (tags list cursors).
 */
export function operatorSecretFile(persistTo: string): { envFile: string; operatorSecret: string } {
  const operatorSecret = process.env.OPERATOR_SECRET ?? randomBytes(32).toString("base64url");
  const envFile = path.join(persistTo, "operator.env");
  const fresh = () => randomBytes(32).toString("base64url");
  writeFileSync(envFile, `OPERATOR_SECRET=${operatorSecret}\nOAUTH_TOKEN_KEY=${fresh()}\nCURSOR_KEY=${fresh()}\n`, {
    mode: 0o600,
  });
  return { envFile, operatorSecret };
}

/** Creates an account and one key (default scopes) on the server, and remembers the key for its URL. */
export async function provisionApiKey(baseUrl: string, operatorSecret: string): Promise<string> {
  const operator = (route: string, body: unknown) =>
    fetch(new URL(`/operator/v1${route}`, baseUrl), {
      method: "POST",
      headers: { Authorization: `Bearer ${operatorSecret}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const email = `e2e-${randomBytes(6).toString("hex")}@example.test`;
  const account = await operator("/accounts", { email, password: randomBytes(16).toString("hex"), name: "E2E" });
  if (account.status !== 201) throw new Error(`e2e account: ${account.status} ${await account.text()}`);
  const { id } = (await account.json()) as { id: string };
  const key = await operator(`/accounts/${id}/keys`, { name: "e2e" });
  if (key.status !== 201) throw new Error(`e2e key: ${key.status} ${await key.text()}`);
  const { secret } = (await key.json()) as { secret: string };
  keys.set(new URL(baseUrl).origin, secret);
  return secret;
}

/** The key provisioned for the server at `baseUrl`, if any. */
export const apiKeyFor = (baseUrl: string): string | undefined => keys.get(new URL(baseUrl).origin);

/** The key provisioned for the server at `baseUrl`, for a test that needs one: an error if none was. */
export const provisionedApiKey = (baseUrl: string): string =>
  expectDefined(apiKeyFor(baseUrl), `an API key provisioned for ${baseUrl}`);
