/**
 * The demo accounts of `npm start` (local only), on every deployment it serves, under one id each:
 * - the demo customer, with a fresh live key (production) and test key (sandbox) at every start.
 *   A secret is shown once and never stored, so the previous start's demo keys cannot be printed
 *   again: they are revoked (and the start screen names them) rather than left to pile up against
 *   the limit of 3 active keys. Keys the developer created are not touched. The same email and
 *   password sign in to the dashboard and the OAuth consent page.
 * - the demo operator (the `operator` role), to try the dashboard's operator page.
 */
import { expectDefined } from "../../common/expect";
import type { AccountView, KeyView } from "../../worker/auth/account-views";
import { MODE_OF, OperatorClient, OperatorRefusal, type Deployment } from "./operator-client";

const DEMO_KEY_NAME = "npm start demo";

interface DemoAccountInput {
  email: string;
  password: string;
  name: string;
  operator: boolean;
}

const DEMO_CUSTOMER: DemoAccountInput = {
  email: "demo@example.com",
  password: "demo-cheese-password",
  name: "Demo Customer",
  operator: false,
};
const DEMO_OPERATOR: DemoAccountInput = {
  email: "operator@example.com",
  password: "demo-operator-password",
  name: "Demo Operator",
  operator: true,
};

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
  /** The previous start's demo keys, revoked by this one. */
  revoked: { deployment: Deployment; id: string; last4: string }[];
}

export async function seedDemoAccounts(
  servers: { deployment: Deployment; baseUrl: string }[],
  operatorSecret: string,
): Promise<DemoAccounts> {
  const ids: { customer?: string; operator?: string } = {};
  const keys: DemoAccounts["keys"] = [];
  const revoked: DemoAccounts["revoked"] = [];
  for (const { deployment, baseUrl } of servers) {
    const client = new OperatorClient(baseUrl, operatorSecret);
    const customer = await findOrCreate(client, DEMO_CUSTOMER, ids.customer);
    ids.customer ??= customer.id;
    // On every deployment: the first one's id is reused, so the operator is one account on both.
    const operator = await findOrCreate(client, DEMO_OPERATOR, ids.operator);
    ids.operator ??= operator.id;
    const renewed = await renewDemoKey(client, customer.id, deployment);
    keys.push({ deployment, baseUrl, secret: renewed.secret });
    revoked.push(...renewed.revoked.map((key) => ({ deployment, id: key.id, last4: key.last4 })));
  }
  const login = (input: DemoAccountInput, id: string): DemoAccount => ({
    id,
    email: input.email,
    password: input.password,
  });
  return {
    customer: login(DEMO_CUSTOMER, expectDefined(ids.customer, "the demo customer's id: one server at least")),
    operator: login(DEMO_OPERATOR, expectDefined(ids.operator, "the demo operator's id: one server at least")),
    keys,
    revoked,
  };
}

/**
 * The previous start's demo keys revoked, then a new one. Revoked first, they never count against
 * the limit of 3 active keys: only the developer's own keys can fill it, and then (no demo key
 * being active, so none revoked) npm start stops and says which keys to revoke.
 */
async function renewDemoKey(
  client: OperatorClient,
  accountId: string,
  deployment: Deployment,
): Promise<{ secret: string; revoked: KeyView[] }> {
  const previous = (await client.listKeys(accountId)).filter(
    (key) => key.status === "active" && key.name === DEMO_KEY_NAME,
  );
  for (const key of previous) await client.revokeKey(key.id);
  try {
    const created = await client.createKey(accountId, { mode: MODE_OF[deployment], name: DEMO_KEY_NAME });
    return { secret: created.secret, revoked: previous };
  } catch (error) {
    if (!(error instanceof OperatorRefusal && error.code === "key_limit_reached")) throw error;
    throw new Error(
      `no demo key could be made: ${DEMO_CUSTOMER.email} has ${MODE_OF[deployment]} keys of its own on ${deployment} up to the limit ` +
        `(${error.detail}). Revoke one (npm run operator -- list --account=${accountId}, then npm run operator -- revoke <key_id>) and start again.`,
    );
  }
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
