/**
 * The API-key part of `npm start`: the demo customer exists on both deployments under one id, with
 * a fresh live key (production) and test key (sandbox) at every start. Secrets cannot be shown
 * again, so the previous run's demo keys are revoked rather than reused; the 3-key limit is never hit.
 */
import type { AccountView } from "../../src/auth/account-views";
import { MODE_OF, OperatorClient, OperatorRefusal, type Deployment } from "./operator-client";

export const DEMO_KEY_NAME = "npm start demo";

export interface DemoKeys {
  accountId: string;
  email: string;
  /** Per deployment: its base URL and the new key's secret. */
  keys: { deployment: Deployment; baseUrl: string; secret: string }[];
}

export async function seedDemoKeys(
  servers: { deployment: Deployment; baseUrl: string }[],
  operatorSecret: string,
  customer: { email: string; password: string; name: string },
): Promise<DemoKeys> {
  let accountId: string | undefined;
  const keys: DemoKeys["keys"] = [];
  for (const { deployment, baseUrl } of servers) {
    const client = new OperatorClient(baseUrl, operatorSecret);
    const account = await findOrCreate(client, customer, accountId);
    accountId ??= account.id;
    for (const key of await client.listKeys(account.id)) {
      if (key.status === "active" && key.name === DEMO_KEY_NAME) await client.revokeKey(key.id);
    }
    const created = await client.createKey(account.id, { mode: MODE_OF[deployment], name: DEMO_KEY_NAME });
    keys.push({ deployment, baseUrl, secret: created.secret });
  }
  return { accountId: accountId!, email: customer.email, keys };
}

async function findOrCreate(client: OperatorClient, customer: { email: string; password: string; name: string }, id?: string): Promise<AccountView> {
  try {
    return await client.createAccount({ ...customer, id });
  } catch (error) {
    if (!(error instanceof OperatorRefusal && error.code === "account_exists")) throw error;
    const existing = (await client.listAccounts()).find((account) => account.email === customer.email.toLowerCase());
    if (!existing) throw error;
    return existing;
  }
}

export function demoKeysText(demo: DemoKeys): string {
  const lines = [`API keys of the demo account ${demo.email} (${demo.accountId}), new at every npm start:`];
  for (const { deployment, secret } of demo.keys) lines.push(`  ${MODE_OF[deployment]} key (${deployment}): ${secret}`);
  lines.push("Try:");
  for (const { baseUrl, secret } of demo.keys) lines.push(`  curl -H "Authorization: Bearer ${secret}" ${baseUrl}/v2/cheeses`);
  lines.push(`  npm run keys -- list --account ${demo.accountId}${portFlags(demo.keys)}`);
  return lines.join("\n");
}

/** `npm run keys` finds npm start's servers on 8787/8788; other ports must be named. */
function portFlags(keys: DemoKeys["keys"]): string {
  const flags = { production: "--port", sandbox: "--sandbox-port" } as const;
  const defaults = { production: "8787", sandbox: "8788" } as const;
  return keys
    .filter(({ deployment, baseUrl }) => new URL(baseUrl).port !== defaults[deployment])
    .map(({ deployment, baseUrl }) => ` ${flags[deployment]} ${new URL(baseUrl).port}`)
    .join("");
}
