/**
 * The demo accounts of `npm start` (local only), on every deployment it serves, under one id each:
 * - the demo customer, with a fresh live key (production) and test key (sandbox) at every start.
 *   Secrets cannot be shown again, so the previous run's demo keys are revoked rather than reused;
 *   the 3-key limit is never hit. The same email and password sign in to the dashboard and the
 *   OAuth consent page.
 * - the demo operator (the `operator` role), to try the dashboard's operator page.
 */
import type { AccountView } from "../../src/auth/account-views";
import { MODE_OF, OperatorClient, OperatorRefusal, type Deployment } from "./operator-client";

const DEMO_KEY_NAME = "npm start demo";

interface DemoAccountInput {
  email: string;
  password: string;
  name: string;
  operator: boolean;
}

const DEMO_CUSTOMER: DemoAccountInput = { email: "demo@example.com", password: "demo-cheese-password", name: "Demo Customer", operator: false };
const DEMO_OPERATOR: DemoAccountInput = { email: "operator@example.com", password: "demo-operator-password", name: "Demo Operator", operator: true };

interface DemoAccount {
  id: string;
  email: string;
  password: string;
}

export interface DemoAccounts {
  customer: DemoAccount;
  operator: DemoAccount;
  /** The customer's new keys, per deployment: its base URL and the key's secret. */
  keys: { deployment: Deployment; baseUrl: string; secret: string }[];
}

export async function seedDemoAccounts(servers: { deployment: Deployment; baseUrl: string }[], operatorSecret: string): Promise<DemoAccounts> {
  const ids: { customer?: string; operator?: string } = {};
  const keys: DemoAccounts["keys"] = [];
  for (const { deployment, baseUrl } of servers) {
    const client = new OperatorClient(baseUrl, operatorSecret);
    const customer = await findOrCreate(client, DEMO_CUSTOMER, ids.customer);
    ids.customer ??= customer.id;
    ids.operator ??= (await findOrCreate(client, DEMO_OPERATOR, ids.operator)).id;
    for (const key of await client.listKeys(customer.id)) {
      if (key.status === "active" && key.name === DEMO_KEY_NAME) await client.revokeKey(key.id);
    }
    const created = await client.createKey(customer.id, { mode: MODE_OF[deployment], name: DEMO_KEY_NAME });
    keys.push({ deployment, baseUrl, secret: created.secret });
  }
  const login = (input: DemoAccountInput, id: string): DemoAccount => ({ id, email: input.email, password: input.password });
  return { customer: login(DEMO_CUSTOMER, ids.customer!), operator: login(DEMO_OPERATOR, ids.operator!), keys };
}

/** The account registered under this email (from an earlier run), or a new one with this id. */
async function findOrCreate(client: OperatorClient, input: DemoAccountInput, id?: string): Promise<AccountView> {
  try {
    return await client.createAccount({ ...input, id });
  } catch (error) {
    if (!(error instanceof OperatorRefusal && error.code === "account_exists")) throw error;
    const existing = (await client.listAccounts()).find((account) => account.email === input.email.toLowerCase());
    if (!existing) throw error;
    return existing;
  }
}
