/**
 * No request a client can send produces a 5xx. Every route the app registers (read from the app
 * itself, so a new route is covered) gets every method and a table of malformed requests: broken
 * and oversized bodies, wrong media types, odd Range/If-* values, odd credentials, invalid UTF-8
 * and percent-encodings in paths and queries, oversized headers. Each answer must be < 500 and in
 * the route's documented error form: problem+json, RFC 6749 JSON on the OAuth protocol endpoints
 * (RFC 7591's on /oauth/register), JSON-RPC errors on /mcp, an HTML page (or a redirect) on the
 * browser pages.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import app from "../../src/worker/index";
import { freshIp, newAccount, ORIGIN, sharedTestKey } from "./auth-fixtures";
import { csrfOf, keysPage, signIn } from "./dashboard-support";
import { odd, routePaths, type Credentials } from "./support/malformed-requests";
import { publish, testRelease } from "./support/releases";

const OPERATOR_SECRET = "operator-secret-for-tests-0123456789abcdef";
const bindings = { ...env, OPERATOR_SECRET } as unknown as Env;
const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND"];

let credentials: Credentials;

/** A fresh signed-in session each time: a table that posts a valid form to /logout ends the last one. */
async function signInFresh(): Promise<void> {
  const session = await signIn(await newAccount());
  credentials = {
    apiKey: await sharedTestKey(),
    operatorSecret: OPERATOR_SECRET,
    cookie: [...session.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
    csrfToken: csrfOf(await keysPage(session)),
  };
}

beforeAll(async () => {
  await publish(testRelease("base")); // so the catalog routes answer, not 503
});

/** What an error answer on `path` may look like. */
function errorFormOk(path: string, contentType: string): boolean {
  if (contentType === "application/problem+json") return true;
  if (/^\/(oauth\/(token|revoke|register)|mcp)$/.test(path)) return contentType.startsWith("application/json");
  if (/^\/(login|logout|oauth\/authorize|dashboard|explore|web\/)/.test(path))
    return contentType.startsWith("text/html");
  return false;
}

async function failuresFor(path: string, methods: readonly string[]): Promise<string[]> {
  const failures: string[] = [];
  // The methods at once, each its table in order: a request waits on storage, so the isolate
  // answers another method's meanwhile (the file took 28 s instead of 40 s at load average 12).
  await Promise.all(
    methods.map(async (method) => {
      for (const request of odd(method, path, credentials)) {
        const headers = new Headers(request.init.headers);
        headers.set("CF-Connecting-IP", freshIp());
        const ctx = createExecutionContext();
        const res = await app.fetch(
          new Request(new URL(request.path, ORIGIN), { ...request.init, headers }),
          bindings,
          ctx,
        );
        // Read the whole body before waiting on the context: a streamed document is piped in waitUntil.
        const body = await res.text();
        await waitOnExecutionContext(ctx);
        const type = res.headers.get("content-type") ?? "";
        const broken =
          res.status >= 500 ||
          (res.status >= 400 && method !== "HEAD" && !errorFormOk(request.path.replace(/\?.*$/s, ""), type));
        if (broken)
          failures.push(
            `${method} ${request.path.slice(0, 120)} [${request.name}] → ${res.status} ${type}: ${body.slice(0, 200)}`,
          );
      }
    }),
  );
  return failures;
}

describe("no request to a route produces a 5xx", () => {
  const paths = routePaths(app);
  beforeAll(signInFresh);

  it("reads the routes from the app", () => {
    expect(paths.length).toBeGreaterThan(30);
    expect(paths).toContain("/v1/catalog");
    expect(paths).toContain("/oauth/token");
  });

  it.each(paths)("%s, every method, malformed requests", { timeout: 120_000 }, async (path) => {
    expect(await failuresFor(path, METHODS)).toEqual([]);
  });
});

describe("no request to an odd path produces a 5xx", () => {
  beforeAll(signInFresh);

  it.each([
    "/%ff",
    "/v1/%63atalog",
    "//v1/catalog",
    "/v1/catalog/..",
    "/v1/releases/%E0%A4%A",
    "/v1/releases/%00/parts/%ff",
    "/dashboard/%ff%fe",
    "/oauth/%00",
    "/v1/keys/%ff",
    "/dashboard/keys/%ff/revoke",
    "/operator/v1/accounts/%ff/keys",
    `/${"a/".repeat(2000)}`,
  ])("odd path #%#", async (path) => {
    expect(await failuresFor(path, ["GET", "POST"])).toEqual([]);
  });
});
