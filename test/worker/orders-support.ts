/**
 * Shared steps of the orders and customer tests: a customer with a key (through the real account
 * Durable Objects), requests to /v2/orders and /v2/customer, and an address to ship to.
 */
import { env } from "cloudflare:workers";
import { accountWithKey, bearer, call, type TestKey } from "./auth-fixtures";
import type { Scope } from "../../src/common/auth/scopes";
import type { OrderView } from "../../src/worker/orders/schemas";
import type { CustomerView } from "../../src/worker/customers/schemas";

export type { CustomerView, OrderView };

export const ADDRESS = { line1: "12 rue des Fromages", city: "Lyon", postal_code: "69002", country: "FR" };
export const COMTE_TWICE = { items: [{ cheese_id: "chs_comte", quantity: 2 }] };

/** A fresh customer with a key of `scopes` (default: every scope but admin) and, unless `address: null`, a shipping address. */
export async function customer(options: { scopes?: Scope[]; address?: typeof ADDRESS | null } = {}): Promise<TestKey> {
  const key = await accountWithKey({ scopes: options.scopes });
  await env.SUBJECT_GUARDS.getByName(key.key.id).setPolicyOverride({ rate: 1_000_000, burst: 1_000_000 });
  if (options.address !== null) {
    const stub = env.ACCOUNTS.getByName(key.accountId);
    const current = await stub.customer();
    if (!current.ok) throw new Error(current.detail);
    const { name, email, phone, preferences } = current.value.customer;
    const saved = await stub.replaceCustomer(
      { name, email, phone, preferences, shipping_address: { line2: null, ...(options.address ?? ADDRESS) } },
      current.value.version,
    );
    if (!saved.ok) throw new Error(saved.detail);
  }
  return key;
}

export function json(secret: string, method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method,
    headers: { ...bearer(secret), "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}

export const createOrder = (secret: string, body: unknown = COMTE_TWICE, headers: Record<string, string> = {}) =>
  call("/v2/orders", json(secret, "POST", body, headers));

/** Creates an order that must succeed and returns it. */
export async function placeOrder(secret: string, body: unknown = COMTE_TWICE): Promise<OrderView> {
  const res = await createOrder(secret, body);
  if (res.status !== 201) throw new Error(`order not created: ${res.status} ${await res.text()}`);
  return res.json<OrderView>();
}

export const getJson = (secret: string, path: string) => call(path, { headers: bearer(secret) });

/** Moves an order through the account's object directly, as payment and shipping would on production. */
export async function advanceDirectly(accountId: string, orderId: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const moved = await env.ACCOUNTS.getByName(accountId).moveOrder(orderId, "advance");
    if (!moved.ok) throw new Error(moved.detail);
  }
}
