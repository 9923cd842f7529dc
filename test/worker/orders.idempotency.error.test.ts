/**
 * Idempotency-Key on POST /v2/orders refused: the key with another request is 409 and creates
 * nothing, a refused request records no key, a malformed key is 400 naming the header. The
 * answers: orders.idempotency.happy.test.ts.
 */
import { describe, expect, it } from "vitest";
import { expectProblem } from "./support/problems";
import { COMTE_TWICE, createOrder, customer, getJson, type OrderView } from "./orders-support";

const orderCount = async (secret: string) =>
  (await (await getJson(secret, "/v2/orders?limit=100")).json<{ data: OrderView[] }>()).data.length;

describe("Idempotency-Key refused", () => {
  it("refuses the same key with a different body: 409 idempotency_key_reused, nothing created", async () => {
    const { secret } = await customer();
    const key = crypto.randomUUID();
    expect((await createOrder(secret, COMTE_TWICE, { "Idempotency-Key": key })).status).toBe(201);
    const other = await createOrder(
      secret,
      { items: [{ cheese_id: "chs_comte", quantity: 3 }] },
      { "Idempotency-Key": key },
    );
    const problem = await expectProblem(other, 409, "idempotency_key_reused");
    expect(problem.detail).toMatch(/different request/);
    expect(await orderCount(secret)).toBe(1);
  });

  it("records nothing for a refused request: corrected, the same key creates the order", async () => {
    const { secret } = await customer();
    const key = crypto.randomUUID();
    const bad = await createOrder(
      secret,
      { items: [{ cheese_id: "chs_comte", quantity: 0 }] },
      { "Idempotency-Key": key },
    );
    await expectProblem(bad, 400, "bad_request");
    expect((await createOrder(secret, COMTE_TWICE, { "Idempotency-Key": key })).status).toBe(201);
  });

  it("refuses a key that is empty, too long or not visible ASCII, with 400 naming the header", async () => {
    const { secret } = await customer();
    for (const key of ["x".repeat(256), "two words", "ключ"]) {
      const res = await createOrder(secret, COMTE_TWICE, { "Idempotency-Key": key });
      const problem = (await expectProblem(res, 400, "bad_request")) as unknown as { errors: { path: string }[] };
      expect(problem.errors.map((e) => e.path)).toEqual(["idempotency-key"]);
    }
    expect((await createOrder(secret, COMTE_TWICE, { "Idempotency-Key": "x".repeat(255) })).status).toBe(201);
    expect(await orderCount(secret)).toBe(1);
  });
});
