/**
 * `__proto__` as a key in a JSON body is refused by name on every route (400 `bad_request`,
 * `errors[].code` `bad_request`, as every body entry), never dropped; other prototype names are kept as data.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bearer, call } from "./auth-fixtures";
import * as orders from "./orders-support";
import { MCP_HEADERS } from "./support/mcp";
import { expectProblem } from "./support/problems";

type ValidationProblem = { errors: { path: string; code: string }[] };

async function expectRefusedAt(res: Response, paths: string[]): Promise<void> {
  const problem = (await expectProblem(res, 400, "bad_request")) as unknown as ValidationProblem;
  expect(problem.errors.map((error) => [error.path, error.code])).toEqual(paths.map((path) => [path, "bad_request"]));
}

const countOrders = async (secret: string) =>
  (await (await orders.getJson(secret, "/v2/orders?limit=100")).json<{ data: unknown[] }>()).data.length;

describe("__proto__ keys in JSON bodies", () => {
  it("refuses order metadata with __proto__, written plainly or escaped, and creates nothing", async () => {
    const { secret } = await orders.customer();
    await expectRefusedAt(
      await orders.createOrder(
        secret,
        '{"items":[{"cheese_id":"chs_comte","quantity":1}],"metadata":{"__proto__":"x"}}',
      ),
      ["metadata.__proto__"],
    );
    const escaped = '{"items":[{"cheese_id":"chs_comte","quantity":1}],"metadata":{"\\u005f_proto__":"x"}}';
    await expectRefusedAt(await orders.createOrder(secret, escaped), ["metadata.__proto__"]);
    expect(await countOrders(secret)).toBe(0);
  });

  it("keeps other prototype names as metadata", async () => {
    const { secret } = await orders.customer();
    const metadata = { constructor: "a", prototype: "b", toString: "c" };
    const order = await orders.placeOrder(secret, { ...orders.COMTE_TWICE, metadata });
    expect(order.metadata).toEqual(metadata);
  });

  it("refuses __proto__ in a customer merge patch and saves nothing", async () => {
    const { secret } = await orders.customer({ address: null });
    const before = await (await call("/v2/customer", { headers: bearer(secret) })).json();
    const res = await call(
      "/v2/customer",
      orders.json(secret, "PATCH", '{"preferences":{"__proto__":{"language":"fr"}},"__proto__":{"name":"X"}}'),
    );
    await expectRefusedAt(res, ["preferences.__proto__", "__proto__"]);
    expect(await (await call("/v2/customer", { headers: bearer(secret) })).json()).toEqual(before);
  });

  it("refuses __proto__ in a webhook endpoint's body", async () => {
    const { secret } = await orders.customer();
    const body = '{"url":"https://example.com/hook","events":["release.published"],"__proto__":{"status":"x"}}';
    await expectRefusedAt(await call("/v1/webhook_endpoints", orders.json(secret, "POST", body)), ["__proto__"]);
  });

  it("refuses __proto__ in MCP tool arguments, as any other unknown argument is refused", async () => {
    const { secret, key } = await orders.customer();
    await env.SUBJECT_GUARDS.getByName(key.id).setPolicyOverride({ rate: 1_000_000, burst: 1_000_000 });
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "describe_catalog" },
    }).replace('"name"', '"arguments":{"__proto__":{"limit":5}},"name"');
    const res = await call("/mcp", { method: "POST", headers: { ...MCP_HEADERS, ...bearer(secret) }, body });
    await expectRefusedAt(res, ["params.arguments.__proto__"]);
    // And /openapi.json says so: /mcp's 400 may be this problem, not only a JSON-RPC error.
    type Problem400 = { schema: { allOf: [unknown, { properties: { code: { enum: string[] } } }] } };
    const document = await (await call("/openapi.json")).json<{
      paths: Record<string, { post: { responses: Record<string, { content: Record<string, Problem400> }> } }>;
    }>();
    const documented = document.paths["/mcp"]?.post.responses["400"]?.content["application/problem+json"];
    expect(documented?.schema.allOf[1].properties.code.enum).toContain("bad_request");
  });
});
