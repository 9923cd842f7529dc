/**
 * Who may do what: each orders and profile route with a key of each scope (only its own scope and
 * admin pass), customers isolated from each other (404, not 403), and OAuth tokens acting for the
 * customer who consented.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SCOPES, type Scope } from "../../src/common/auth/scopes";
import { bearer, call, newAccount, newKey } from "./auth-fixtures";
import * as orders from "./orders-support";
import { consentedTokens, createCustomer } from "./oauth-support";
import { expectProblem } from "./support/problems";
import ORDERS_DOC from "../../docs/orders.md?raw";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

interface RouteCase {
  name: string;
  scope: Scope;
  request: (secret: string, orderId: string) => Promise<Response>;
  /** The status of a request the scope lets through. */
  ok: number;
}

const ROUTES: RouteCase[] = [
  { name: "GET /v2/customer", scope: "read:profile", ok: 200, request: (s) => orders.getJson(s, "/v2/customer") },
  {
    name: "PATCH /v2/customer",
    scope: "write:profile",
    ok: 200,
    request: (s) => call("/v2/customer", orders.json(s, "PATCH", { name: "Ada" })),
  },
  { name: "POST /v2/orders", scope: "write:orders", ok: 201, request: (s) => orders.createOrder(s) },
  { name: "GET /v2/orders", scope: "read:orders", ok: 200, request: (s) => orders.getJson(s, "/v2/orders") },
  {
    name: "GET /v2/orders/{id}",
    scope: "read:orders",
    ok: 200,
    request: (s, id) => orders.getJson(s, `/v2/orders/${id}`),
  },
  {
    name: "POST /v2/orders/{id}/cancel",
    scope: "write:orders",
    ok: 200,
    request: (s, id) => call(`/v2/orders/${id}/cancel`, { method: "POST", headers: bearer(s) }),
  },
  {
    name: "POST /v2/orders/{id}/test_helpers/advance",
    scope: "write:orders",
    ok: 404, // production has no test helper: past the scope check, not found
    request: (s, id) => call(`/v2/orders/${id}/test_helpers/advance`, { method: "POST", headers: bearer(s) }),
  },
];

/** A customer with an address and an order, and a key holding only `scope` (admin approved first). */
async function restrictedTo(scope: Scope) {
  const { accountId } = await newAccount();
  if (scope === "admin") await env.ACCOUNTS.getByName(accountId).approveAdmin();
  const full = await newKey(accountId);
  await call("/v2/customer", orders.json(full.secret, "PATCH", { shipping_address: orders.ADDRESS }));
  const order = await orders.placeOrder(full.secret);
  const { secret } = await newKey(accountId, { scopes: [scope] });
  return { secret, orderId: order.id };
}

describe("scopes × routes", () => {
  it.each(SCOPES)("a key with only %s passes exactly the routes of that scope (admin: all)", async (scope) => {
    const { secret, orderId } = await restrictedTo(scope);
    for (const route of ROUTES) {
      const res = await route.request(secret, orderId);
      if (scope === route.scope || scope === "admin") {
        expect(res.status, `${route.name} with ${scope}`).toBe(route.ok);
      } else {
        expect(res.status, `${route.name} with ${scope}`).toBe(403);
        const problem = await res.json<{ code: string; required_scope: string }>();
        expect(problem).toMatchObject({ code: "insufficient_scope", required_scope: route.scope });
        expect(res.headers.get("www-authenticate")).toContain(`scope="${route.scope}"`);
      }
    }
  });

  it("lists each route with its scope in docs/orders.md's scope table", () => {
    for (const route of ROUTES)
      expect(ORDERS_DOC, route.name).toMatch(
        new RegExp(`^\\| \`${escapeRegExp(route.name)}\` \\| \`${route.scope}\``, "m"),
      );
  });

  it("documents each route's scope, or admin, as its OpenAPI security", async () => {
    const doc = await (await call("/openapi.json")).json<{
      paths: Record<string, Record<string, { security: Record<string, string[]>[] }>>;
    }>();
    for (const route of ROUTES) {
      const [method, path] = route.name.split(" ") as [string, string];
      expect(doc.paths[path]?.[method.toLowerCase()]?.security, route.name).toEqual([
        { bearerAuth: [route.scope] },
        { oauth2: [route.scope] },
        { bearerAuth: ["admin"] },
        { oauth2: ["admin"] },
      ]);
    }
  });
});

describe("one customer never reaches another's orders", () => {
  it("answers 404 for another customer's order (read and cancel), which stays as it was", async () => {
    const alice = await orders.customer();
    const bob = await orders.customer();
    const order = await orders.placeOrder(alice.secret);
    await expectProblem(await orders.getJson(bob.secret, `/v2/orders/${order.id}`), 404, "order_not_found");
    const cancel = await call(`/v2/orders/${order.id}/cancel`, { method: "POST", headers: bearer(bob.secret) });
    await expectProblem(cancel, 404, "order_not_found");
    expect((await (await orders.getJson(alice.secret, `/v2/orders/${order.id}`)).json<orders.OrderView>()).status).toBe(
      "pending",
    );
    const list = await (await orders.getJson(bob.secret, "/v2/orders")).json<{ data: orders.OrderView[] }>();
    expect(list.data).toEqual([]);
    const cursor = await orders.getJson(bob.secret, `/v2/orders?starting_after=${order.id}`);
    await expectProblem(cursor, 400, "invalid_cursor");
  });

  it("lets an OAuth app act for the customer who consented, and for no one else", async () => {
    const alice = await createCustomer();
    const bob = await orders.customer();
    const bobsOrder = await orders.placeOrder(bob.secret);
    const scope = "read:orders write:orders read:profile write:profile";
    const token = (await consentedTokens({ account: alice, scope })).tokens.access_token;
    const profile = await (await orders.getJson(token, "/v2/customer")).json<{ email: string }>();
    expect(profile.email).toBe(alice.email);
    expect((await call("/v2/customer", orders.json(token, "PATCH", { shipping_address: orders.ADDRESS }))).status).toBe(
      200,
    );
    const created = await orders.createOrder(token, orders.COMTE_TWICE);
    expect(created.status).toBe(201);
    const mine = await created.json<orders.OrderView>();
    const list = await (await orders.getJson(token, "/v2/orders")).json<{ data: orders.OrderView[] }>();
    expect(list.data.map((order) => order.id)).toEqual([mine.id]);
    await expectProblem(await orders.getJson(token, `/v2/orders/${bobsOrder.id}`), 404, "order_not_found");
    // Bob's key sees none of Alice's orders either.
    await expectProblem(await orders.getJson(bob.secret, `/v2/orders/${mine.id}`), 404, "order_not_found");
  });

  it("refuses an OAuth token without the scope, naming it", async () => {
    const alice = await createCustomer();
    const { access_token } = (await consentedTokens({ account: alice, scope: "read:orders" })).tokens;
    const res = await orders.createOrder(access_token, orders.COMTE_TWICE);
    const problem = await expectProblem(res, 403, "insufficient_scope");
    expect(problem.detail).toContain("Ask the customer to authorize write:orders.");
  });
});
