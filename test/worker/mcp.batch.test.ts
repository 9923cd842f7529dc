/**
 * One JSON-RPC message per POST /mcp: a batch (MCP 2025-06-18 removed them) is refused whole with
 * HTTP 400 and -32600 before anything runs, and costs one admission, as any request does.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { INVALID_REQUEST } from "../../src/worker/mcp/single-message";
import { accountWithKey, bearer, call } from "./auth-fixtures";
import { MCP_HEADERS } from "./support/mcp";

const toolCall = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "describe_catalog", arguments: {} },
});

/** A key whose bucket holds `burst` requests and practically never refills. */
async function keyWithBudget(burst: number): Promise<string> {
  const { secret, key } = await accountWithKey();
  await env.SUBJECT_GUARDS.getByName(key.id).setPolicyOverride({ rate: 0.0001, burst });
  return secret;
}

const post = (secret: string, body: unknown) =>
  call("/mcp", { method: "POST", headers: { ...MCP_HEADERS, ...bearer(secret) }, body: JSON.stringify(body) });

describe("JSON-RPC batches on /mcp", () => {
  it("refuses a batch of 100 tools/call with one JSON-RPC error, for one admission", async () => {
    const secret = await keyWithBudget(2);
    const batch = await post(
      secret,
      Array.from({ length: 100 }, (_, i) => toolCall(i + 1)),
    );
    expect(batch.status).toBe(400);
    const answer = await batch.json<{ id: null; error: { code: number; message: string } }>();
    expect(answer).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: INVALID_REQUEST } });
    expect(answer.error.message).toMatch(/one message per POST/);
    expect(batch.headers.get("RateLimit")).toMatch(/r=1;/);

    // The second request of the budget: a single message is answered in full.
    const single = await post(secret, toolCall(101));
    expect(single.status).toBe(200);
    expect(await single.json()).toMatchObject({ id: 101, result: { content: expect.any(Array) } });
    expect(single.headers.get("RateLimit")).toMatch(/r=0;/);
    expect((await post(secret, toolCall(102))).status).toBe(429);
  });

  it("refuses an empty batch and a batch of one the same way", async () => {
    const secret = await keyWithBudget(10);
    for (const body of [[], [toolCall(1)]]) {
      const res = await post(secret, body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: INVALID_REQUEST } });
    }
  });
});
