/**
 * The sandbox deployment ([env.sandbox]: its own KV, R2, Durable Objects and Queues, test keys
 * only), each area in its describe: keys and the test-mode rate limit (25 req/s); orders (test
 * orders, livemode false, the test helper that moves them, a live key refused before any storage
 * is read; production's side: orders.deployment.test.ts); /mcp (a live key is 401
 * `wrong_deployment` with the sandbox realm); and /explore, which shows the release published into
 * the sandbox's own bindings.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "../../src/common/auth/api-key";
import { accountWithKey, bearer, call, countedCall, freshIp, newAccount } from "./auth-fixtures";
import { COMTE_TWICE, createOrder, customer, getJson, type OrderView, placeOrder } from "./orders-support";
import { expectProblem } from "./support/problems";
import { INITIALIZE, MCP_HEADERS } from "./support/mcp";
import { signIn } from "./dashboard-support";
import { explorerView } from "./explore-support";
import { oracleProfiles } from "./support/query-oracle";
import { publish, testRelease } from "./support/releases";

describe("sandbox deployment", () => {
  it("runs with the sandbox's vars", () => {
    expect([env.DEPLOYMENT, env.KEY_MODE]).toEqual(["sandbox", "test"]);
  });

  it("accepts a test key, under the test-mode policy of 25 requests per second", async () => {
    const { secret } = await accountWithKey();
    expect(secret.startsWith("sk_test_")).toBe(true);
    const res = await call("/v2/cheeses", { headers: bearer(secret) });
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-policy")).toBe('"default";q=25;w=1');
    expect(res.headers.get("ratelimit")).toBe('"default";r=24;t=1');
  });

  it("refuses a live key with 401 wrong_deployment that says to use production, without a storage read", async () => {
    const { res, calls } = await countedCall("/v2/cheeses", { headers: bearer(generateApiKey("live").secret) });
    const problem = await expectProblem(res, 401, "wrong_deployment");
    expect(problem.detail).toMatch(
      /live key .* sandbox deployment, which accepts only test keys\. Send this key to the production deployment/,
    );
    expect(res.headers.get("www-authenticate")).toMatch(
      /^Bearer realm="readiness-catalog-sandbox", error="invalid_token"/,
    );
    expect(calls).toEqual([]);
  });

  it("admits exactly the test burst of 25 out of 60 concurrent requests (configured policy, nothing refills)", async () => {
    const { secret } = await accountWithKey();
    const bindings = {
      ...env,
      RATE_LIMITS: { live: { rate: 0.001, burst: 100 }, test: { rate: 0.001, burst: 25 } },
    } as unknown as Env;
    const results = await Promise.all(
      Array.from({ length: 60 }, () => call("/v2/cheeses", { headers: bearer(secret) }, bindings)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(25);
  });

  it("lets a test key create test keys only (a test key can never mint a live key)", async () => {
    const { secret } = await accountWithKey();
    const test = await call("/v1/keys", { method: "POST", headers: bearer(secret) });
    expect(test.status).toBe(201);
    expect((await test.json<{ secret: string }>()).secret).toMatch(/^sk_test_/);
    const live = await call("/v1/keys", {
      method: "POST",
      headers: { ...bearer(secret), "Content-Type": "application/json" },
      body: '{"mode":"live"}',
    });
    expect(live.status).toBe(400);
    expect((await live.json<{ code: string; detail: string }>()).detail).toMatch(
      /create live keys on the production deployment/,
    );
  });
});

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
    const { res, calls } = await countedCall("/v2/orders", {
      method: "POST",
      headers: { ...bearer(generateApiKey("live").secret), "Content-Type": "application/json" },
      body: JSON.stringify(COMTE_TWICE),
    });
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

const mcp = (headers: Record<string, string>) =>
  call("/mcp", {
    method: "POST",
    headers: { ...MCP_HEADERS, ...headers },
    body: INITIALIZE,
  });

describe("sandbox /mcp", () => {
  it("answers a test key", async () => {
    const { secret } = await accountWithKey();
    expect(secret.startsWith("sk_test_")).toBe(true);
    const res = await mcp(bearer(secret));
    expect(res.status).toBe(200);
    expect((await res.json<{ result: { serverInfo: { name: string } } }>()).result.serverInfo.name).toBe(
      "readiness-catalog",
    );
  });

  it("refuses a live key with 401 wrong_deployment", async () => {
    const res = await mcp({ ...bearer(generateApiKey("live").secret), "CF-Connecting-IP": freshIp() });
    expect(res.status).toBe(401);
    expect((await res.json<{ code: string }>()).code).toBe("wrong_deployment");
    expect(res.headers.get("WWW-Authenticate")).toMatch(
      /^Bearer realm="readiness-catalog-sandbox", error="invalid_token", .*resource_metadata="https:\/\/api\.test\/\.well-known\/oauth-protected-resource"$/,
    );
  });
});

const smallest = testRelease("smallest");

describe("sandbox /explore", () => {
  beforeAll(async () => {
    await publish(smallest);
  }, 60_000);

  it("shows the release published to the sandbox, and its profiles", async () => {
    const client = await signIn(await newAccount());
    const view = await explorerView(client, "/explore?limit=100");
    expect(view.html).toContain(smallest.manifest.release_id);
    const ids = oracleProfiles(smallest).map((p) => p.profile.agent_readiness_profile_id);
    expect(view.count).toBe(ids.length);
    expect([...view.ids].sort()).toEqual([...ids].sort());
  });
});
