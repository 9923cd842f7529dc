/**
 * The access log (src/worker/http/access-log.ts): one JSON line per request, read back from the worker's
 * own console, with the request id a problem body quotes, the route pattern, the status, who asked
 * (key id or grant id) and the duration, and never a credential, a raw path or a query string.
 */
import { exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AccessLogLine } from "../../src/worker/http/access-log";
import { accountWithKey, bearer } from "./auth-fixtures";
import { consentedTokens, createCustomer, ORIGIN } from "./oauth-support";

let lines: string[] = [];
beforeEach(() => {
  lines = [];
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
});
afterEach(() => vi.restoreAllMocks());

async function send(path: string, headers: Record<string, string> = {}): Promise<{ response: Response; text: string }> {
  const response = await exports.default.fetch(`${ORIGIN}${path}`, { headers });
  return { response, text: await response.text() };
}

/** The access-log lines written so far (each line must be one JSON object). */
function accessLines(): AccessLogLine[] {
  return lines
    .map((line) => JSON.parse(line) as AccessLogLine & { message: string })
    .filter((line) => line.message === "request");
}

describe("access log", () => {
  it("writes one JSON line per request, with the request id the problem body gives the user", async () => {
    const { response, text } = await send("/v1/catalog");
    expect(response.status).toBe(401);
    const [line, ...others] = accessLines();
    expect(others).toEqual([]);
    expect(line).toEqual({
      level: "info",
      message: "request",
      request_id: JSON.parse(text).request_id,
      method: "GET",
      route: "/v1/catalog",
      status: 401,
      duration_ms: expect.any(Number),
    });
    expect(line?.request_id).toBe(response.headers.get("Request-Id"));
  });

  it("names an API key by its id and account, never by its secret", async () => {
    const { secret, key, accountId } = await accountWithKey({ scopes: ["read:cheeses"] });
    const { response } = await send("/v2/cheeses", bearer(secret));
    expect(response.status).toBe(200);
    const [line] = accessLines();
    expect(line).toMatchObject({ route: "/v2/cheeses", status: 200, key_id: key.id, account_id: accountId });
    expect(lines.join("\n")).not.toContain(secret);
  });

  it("logs the route pattern, not the path's ids or the query string", async () => {
    const release = `sha256:${"ab".repeat(32)}`;
    const { secret } = await accountWithKey();
    await send(`/v1/releases/${release}/parts/3?code=one-time-code`, bearer(secret));
    const [line] = accessLines();
    expect(line?.route).toBe("/v1/releases/:release_id/parts/:n");
    expect(lines.join("\n")).not.toContain("ab".repeat(32));
    expect(lines.join("\n")).not.toContain("one-time-code");
  });

  it("logs no route for a path no route matches", async () => {
    const { response } = await send("/nope/secret-looking-path");
    expect(response.status).toBe(404);
    expect(accessLines()[0]).toMatchObject({ route: null, status: 404 });
    expect(lines.join("\n")).not.toContain("secret-looking-path");
  });

  it("names an OAuth access token by its grant id, never by the token", async () => {
    const account = await createCustomer();
    const { tokens } = await consentedTokens({ account, scope: "read:cheeses" });
    lines = [];
    await send("/v2/cheeses", bearer(tokens.access_token));
    const [line] = accessLines();
    expect(line).toMatchObject({ route: "/v2/cheeses", status: 200, grant_id: expect.stringMatching(/^grant_/) });
    expect(line).not.toHaveProperty("key_id");
    expect(lines.join("\n")).not.toContain(tokens.access_token);
  });
});
