/**
 * Orders on production: live orders (livemode true), and a test key refused before any storage is
 * read, so no sandbox credential can make or list a production order. The sandbox's side:
 * deployment.sandbox.test.ts. Each deployment's orders live in its own AccountObject namespace
 * (wrangler.toml [env.sandbox] durable_objects), so neither can list the other's.
 */
import { describe, expect, it } from "vitest";
import { generateApiKey } from "../../src/common/auth/api-key";
import { bearer, call, countingEnv, freshIp } from "./auth-fixtures";
import { customer, placeOrder } from "./orders-support";
import { expectProblem } from "./support/problems";

describe("orders on production", () => {
  it("are live: livemode true", async () => {
    const { secret } = await customer();
    expect((await placeOrder(secret)).livemode).toBe(true);
  });

  it.each([
    ["POST", "/v2/orders"],
    ["GET", "/v2/orders"],
    ["GET", "/v2/customer"],
  ])("refuses a test key on %s %s with 401 wrong_deployment, reading no storage", async (method, path) => {
    const { env: counted, calls } = countingEnv();
    const headers = { ...bearer(generateApiKey("test").secret), "CF-Connecting-IP": freshIp() };
    const res = await call(path, { method, headers }, counted);
    await expectProblem(res, 401, "wrong_deployment");
    expect(calls).toEqual([]);
  });
});
