/**
 * The sandbox serves /mcp too, to test keys only, as every other route: a live key is 401
 * `wrong_deployment`, with the sandbox realm and the resource metadata in the challenge.
 */
import { describe, expect, it } from "vitest";
import { INITIALIZE, MCP_HEADERS } from "./support/mcp";
import { generateApiKey } from "../../src/common/auth/api-key";
import { accountWithKey, bearer, call, freshIp } from "./auth-fixtures";

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
