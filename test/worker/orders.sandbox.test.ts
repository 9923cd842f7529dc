/**
 * Orders on the sandbox ([env.sandbox]): test keys make test orders (livemode false) in the
 * sandbox's own Durable Objects, the test helper moves them through their states, and a live key
 * is refused before any storage is read. Production's side: orders.deployment.test.ts.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { generateApiKey } from "../../src/common/auth/api-key";
import { bearer, call, countingEnv, freshIp } from "./auth-fixtures";
import { COMTE_TWICE, createOrder, customer, getJson, type OrderView, placeOrder } from "./orders-support";
import { expectProblem } from "./support/problems";

const advance = (secret: string, id: string) =>
  call(`/v2/orders/${id}/test_helpers/advance`, { method: "POST", headers: bearer(secret) });

describe("orders on the sandbox", () => {
  it("makes test orders and a test profile: livemode false", async () => {
    expect(env.KEY_MODE).toBe("test");
    const { secret } = await customer();
    expect(secret.startsWith("sk_test_")).toBe(true);
    const order = await placeOrder(secret);
    expect(order.livemode).toBe(false);
    expect((await (await getJson(secret, "/v2/customer")).json<{ livemode: boolean }>()).livemode).toBe(false);
    const list = await (await getJson(secret, "/v2/orders")).json<{ data: OrderView[] }>();
    expect(list.data.map((o) => [o.id, o.livemode])).toEqual([[order.id, false]]);
  });

  it("moves a test order pending → paid → shipped with the test helper, then refuses both moves", async () => {
    const { secret } = await customer();
    const order = await placeOrder(secret);
    const paid = await advance(secret, order.id);
    expect(paid.status).toBe(200);
    expect((await paid.json<OrderView>()).status).toBe("paid");
    expect((await (await advance(secret, order.id)).json<OrderView>()).status).toBe("shipped");
    const further = await expectProblem(await advance(secret, order.id), 409, "invalid_state_transition");
    expect(further.detail).toBe(`Order ${order.id} is shipped; advance is allowed only from pending or paid.`);
    const cancel = await call(`/v2/orders/${order.id}/cancel`, { method: "POST", headers: bearer(secret) });
    await expectProblem(cancel, 409, "invalid_state_transition");
    const cancelled = await placeOrder(secret);
    await call(`/v2/orders/${cancelled.id}/cancel`, { method: "POST", headers: bearer(secret) });
    await expectProblem(await advance(secret, cancelled.id), 409, "invalid_state_transition");
  });

  it("keeps the test helper to the customer's own orders", async () => {
    const alice = await customer();
    const bob = await customer();
    const order = await placeOrder(alice.secret);
    await expectProblem(await advance(bob.secret, order.id), 404, "order_not_found");
  });

  it("refuses a live key with 401 wrong_deployment before reading any storage: no live order here", async () => {
    const { env: counted, calls } = countingEnv();
    const res = await call(
      "/v2/orders",
      {
        method: "POST",
        headers: {
          ...bearer(generateApiKey("live").secret),
          "Content-Type": "application/json",
          "CF-Connecting-IP": freshIp(),
        },
        body: JSON.stringify(COMTE_TWICE),
      },
      counted,
    );
    await expectProblem(res, 401, "wrong_deployment");
    expect(calls).toEqual([]);
  });

  it("answers idempotent replays on the sandbox too", async () => {
    const { secret } = await customer();
    const key = crypto.randomUUID();
    const first = await createOrder(secret, COMTE_TWICE, { "Idempotency-Key": key });
    const again = await createOrder(secret, COMTE_TWICE, { "Idempotency-Key": key });
    expect(await again.text()).toBe(await first.text());
  });
});
