/**
 * Idempotency-Key on POST /v2/orders, as Stripe's: a retry replays the first answer, and
 * concurrent requests with one key make one order. Its refusals (the key with another request is
 * 409, a malformed key 400): orders.idempotency.error.test.ts.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { IDEMPOTENCY_TTL_MS } from "../../src/worker/orders/order-book";
import { bearer, call } from "./auth-fixtures";
import { COMTE_TWICE, createOrder, customer, getJson, type OrderView } from "./orders-support";

const orderCount = async (secret: string) =>
  (await (await getJson(secret, "/v2/orders?limit=100")).json<{ data: OrderView[] }>()).data.length;

describe("Idempotency-Key", () => {
  it("replays the first answer (status, body) for a retry and creates nothing more", async () => {
    const { secret } = await customer();
    const key = crypto.randomUUID();
    const first = await createOrder(secret, COMTE_TWICE, { "Idempotency-Key": key });
    expect(first.status).toBe(201);
    const body = await first.text();
    const retry = await createOrder(secret, COMTE_TWICE, { "Idempotency-Key": key });
    expect(retry.status).toBe(201);
    expect(await retry.text()).toBe(body);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.headers.get("location")).toBe(first.headers.get("location"));
    expect(await orderCount(secret)).toBe(1);
  });

  it("says on the answer when no Idempotency-Key was sent, and not when one was", async () => {
    const { secret } = await customer();
    const keyless = await createOrder(secret, COMTE_TWICE);
    expect(keyless.status).toBe(201);
    expect(keyless.headers.get("idempotency-warning")).toMatch(
      /^no Idempotency-Key was sent: a retry .* another order/,
    );
    const keyed = await createOrder(secret, COMTE_TWICE, { "Idempotency-Key": crypto.randomUUID() });
    expect(keyed.status).toBe(201);
    expect(keyed.headers.get("idempotency-warning")).toBeNull();
  });

  it("replays the first answer even after the order changed (the answer, not the order)", async () => {
    const { secret } = await customer();
    const key = crypto.randomUUID();
    const first = await (await createOrder(secret, COMTE_TWICE, { "Idempotency-Key": key })).json<OrderView>();
    await createOrder(secret, COMTE_TWICE); // no key: never deduplicated
    const cancel = await call(`/v2/orders/${first.id}/cancel`, { method: "POST", headers: bearer(secret) });
    expect((await cancel.json<OrderView>()).status).toBe("cancelled");
    const again = await (await createOrder(secret, COMTE_TWICE, { "Idempotency-Key": key })).json<OrderView>();
    expect(again).toEqual(first);
    expect(again.status).toBe("pending");
    expect(await orderCount(secret)).toBe(2);
  });

  it("treats the same request with members in another order as the same request", async () => {
    const { secret } = await customer();
    const key = crypto.randomUUID();
    const body = { items: [{ cheese_id: "chs_feta", quantity: 1 }], metadata: { a: "1", b: "2" } };
    const first = await createOrder(secret, body, { "Idempotency-Key": key });
    const reordered = '{"metadata":{"b":"2","a":"1"},"items":[{"quantity":1,"cheese_id":"chs_feta"}]}';
    const retry = await createOrder(secret, reordered, { "Idempotency-Key": key });
    expect(retry.status).toBe(201);
    expect(await retry.text()).toBe(await first.text());
  });

  it("creates exactly one order from 20 concurrent requests with one key, all answering the same order", async () => {
    const { secret } = await customer();
    const key = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => createOrder(secret, COMTE_TWICE, { "Idempotency-Key": key })),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(201));
    const ids = new Set(await Promise.all(answers.map(async (res) => (await res.json<OrderView>()).id)));
    expect(ids.size).toBe(1);
    expect(answers.filter((res) => res.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
    expect(await orderCount(secret)).toBe(1);
  });

  it("keeps keys per customer: another customer's same key makes their own order", async () => {
    const a = await customer();
    const b = await customer();
    const key = crypto.randomUUID();
    const first = await (await createOrder(a.secret, COMTE_TWICE, { "Idempotency-Key": key })).json<OrderView>();
    const second = await createOrder(
      b.secret,
      { items: [{ cheese_id: "chs_feta", quantity: 1 }] },
      { "Idempotency-Key": key },
    );
    expect(second.status).toBe(201);
    expect((await second.json<OrderView>()).id).not.toBe(first.id);
  });

  it("forgets a key after 24 hours: the record's expiry is 24 h after the first request", async () => {
    const { secret, accountId } = await customer();
    const key = crypto.randomUUID();
    const before = Date.now();
    expect((await createOrder(secret, COMTE_TWICE, { "Idempotency-Key": key })).status).toBe(201);
    const stub = env.ACCOUNTS.getByName(accountId);
    const { runInDurableObject } = await import("cloudflare:test");
    const expires = await runInDurableObject(
      stub,
      (_instance, state) =>
        state.storage.sql.exec<{ expires_ms: number }>("SELECT expires_ms FROM idempotency_keys").one().expires_ms,
    );
    expect(expires).toBeGreaterThanOrEqual(before + IDEMPOTENCY_TTL_MS);
    expect(expires).toBeLessThanOrEqual(Date.now() + IDEMPOTENCY_TTL_MS);
    // Expire it, as 24 hours would: the same key with another body is now a new order, not a 409.
    await runInDurableObject(stub, (_instance, state) => {
      state.storage.sql.exec("UPDATE idempotency_keys SET expires_ms = ?", Date.now() - 1);
    });
    const later = await createOrder(
      secret,
      { items: [{ cheese_id: "chs_feta", quantity: 1 }] },
      { "Idempotency-Key": key },
    );
    expect(later.status).toBe(201);
  });
});
