/**
 * Usage counting (docs/usage.md "How counting works"): every request that authenticated as a key
 * is counted once by key, hour, status, code and route template, with its bytes; its error answers
 * go to the key's recent-errors ring; refusals before authentication are the deployment's. The
 * counts reach D1 in batches from `waitUntil`: once a request's waitUntil work has ended, nothing
 * of it is left only in the isolate's memory (an eviction then loses nothing), and a batch written
 * twice counts once.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { UsageMeter } from "../../src/worker/usage/usage-meter";
import type { UsageEntry } from "../../src/worker/usage/usage-tally";
import { writeUsageBatch } from "../../src/worker/usage/usage-writes";
import { accountWithKey, bearer, call, freshIp } from "./auth-fixtures";

interface CountRow {
  status: number;
  code: string;
  route: string;
  requests: number;
  bytes: number;
}

const countsOf = async (subject: string, period = "hour") =>
  (
    await env.CATALOG_DB.prepare(
      "SELECT status, code, route, requests, bytes FROM usage_counts WHERE subject = ? AND period = ? ORDER BY status, route",
    )
      .bind(subject, period)
      .all<CountRow>()
  ).results;

const totalOf = (rows: CountRow[]) => rows.reduce((sum, row) => sum + row.requests, 0);

describe("what is counted", () => {
  it("counts each request of a key once, by status, code and route template, with its bytes", async () => {
    const { secret, key } = await accountWithKey({ scopes: ["read:cheeses"] });
    const headers = bearer(secret);
    const answers = await Promise.all(Array.from({ length: 12 }, () => call("/v2/cheeses", { headers })));
    expect(answers.map((res) => res.status)).toEqual(Array(12).fill(200));
    const missing = await call("/v2/cheeses?colour=blue", { headers });
    const forbidden = await call("/v1/releases/not-a-release", { headers });
    expect([missing.status, forbidden.status]).toEqual([400, 403]);

    const rows = await countsOf(key.id);
    const bodyBytes = (await answers[0]?.clone().arrayBuffer())?.byteLength;
    expect(rows).toEqual([
      { status: 200, code: "", route: "/v2/cheeses", requests: 12, bytes: 12 * (bodyBytes ?? 0) },
      { status: 400, code: "unknown_parameter", route: "/v2/cheeses", requests: 1, bytes: expect.any(Number) },
      {
        status: 403,
        code: "insufficient_scope",
        route: "/v1/releases/{release_id}",
        requests: 1,
        bytes: expect.any(Number),
      },
    ]);
    expect(bodyBytes).toBeGreaterThan(0);
    expect(totalOf(await countsOf(key.id, "day"))).toBe(14);

    const errors = await env.CATALOG_DB.prepare(
      "SELECT request_id, method, route, status, code FROM usage_errors WHERE subject = ? ORDER BY at",
    )
      .bind(key.id)
      .all();
    expect(errors.results).toEqual([
      expect.objectContaining({
        request_id: missing.headers.get("Request-Id"),
        status: 400,
        code: "unknown_parameter",
      }),
      expect.objectContaining({
        request_id: forbidden.headers.get("Request-Id"),
        method: "GET",
        code: "insufficient_scope",
      }),
    ]);
  });

  it("counts a refusal before authentication for the deployment, by status and code, never for a key", async () => {
    const before = totalOf(await countsOf(""));
    const res = await call("/v1/catalog", {
      headers: { ...bearer("sk_live_not-a-key"), "CF-Connecting-IP": freshIp() },
    });
    expect(res.status).toBe(401);
    const after = await countsOf("");
    expect(totalOf(after)).toBe(before + 1);
    expect(after).toContainEqual(
      expect.objectContaining({ status: 401, code: "invalid_api_key", route: "/v1/catalog" }),
    );
  });

  it("does not count what no credential asked for (the dashboard's and the explorer's pages)", async () => {
    const before = await env.CATALOG_DB.prepare("SELECT SUM(requests) AS n FROM usage_counts").first<{ n: number }>();
    await call("/dashboard");
    await call("/explore");
    const after = await env.CATALOG_DB.prepare("SELECT SUM(requests) AS n FROM usage_counts").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });
});

const entry = (subject: string, status = 200): UsageEntry => ({
  subject,
  accountId: "acct_test",
  at: Date.now(),
  status,
  code: status === 200 ? "" : "rate_limited",
  route: "/v1/catalog",
  bytes: 10,
  requestId: `req_${crypto.randomUUID().replaceAll("-", "")}`,
  method: "GET",
});

describe("batched writes", () => {
  it("writes a burst counted within the batch delay in one batch, from the first request's waitUntil", async () => {
    const subject = `key_${crypto.randomUUID()}`;
    const meter = new UsageMeter();
    const work: Promise<unknown>[] = [];
    let batches = 0;
    const db = new Proxy(env.CATALOG_DB, {
      get: (target, name) =>
        name === "batch"
          ? (statements: D1PreparedStatement[]) => {
              batches++;
              return target.batch(statements);
            }
          : Reflect.get(target, name).bind(target),
    });
    for (let i = 0; i < 50; i++)
      meter.count(entry(subject, i % 10 === 0 ? 429 : 200), { db, waitUntil: (w) => work.push(w), delayMs: 50 });
    expect(work).toHaveLength(1);
    expect(await countsOf(subject)).toEqual([]);
    // The isolate may go once every request's waitUntil work has ended: by then every count is in D1.
    await Promise.all(work);
    expect(batches).toBe(1);
    expect((await countsOf(subject)).map(({ status, requests }) => [status, requests])).toEqual([
      [200, 45],
      [429, 5],
    ]);
  });

  it("retries a write that failed after it committed, and counts it once", async () => {
    const subject = `key_${crypto.randomUUID()}`;
    let tries = 0;
    const db = new Proxy(env.CATALOG_DB, {
      get: (target, name) =>
        name === "batch"
          ? async (statements: D1PreparedStatement[]) => {
              tries++;
              const results = await target.batch(statements);
              if (tries === 1) throw new Error("network connection lost");
              return results;
            }
          : Reflect.get(target, name).bind(target),
    });
    const work: Promise<unknown>[] = [];
    new UsageMeter().count(entry(subject, 500), { db, waitUntil: (w) => work.push(w), delayMs: 0 });
    await Promise.all(work);
    expect(tries).toBe(2);
    expect(totalOf(await countsOf(subject))).toBe(1);
    expect(totalOf(await countsOf(subject, "day"))).toBe(1);
  });

  it("a batch id written already is refused whole by the batch's transaction", async () => {
    const subject = `key_${crypto.randomUUID()}`;
    const batch = {
      counts: [
        {
          subject,
          accountId: "acct_test",
          hour: 0,
          status: 200,
          code: "",
          route: "/v1/catalog",
          requests: 3,
          bytes: 9,
        },
      ],
      errors: [],
    };
    const id = crypto.randomUUID();
    const options = { now: Date.now(), prune: false };
    expect(await writeUsageBatch(env.CATALOG_DB, id, batch, options)).toBe("written");
    expect(await writeUsageBatch(env.CATALOG_DB, id, batch, options)).toBe("written before");
    expect(await countsOf(subject)).toEqual([{ status: 200, code: "", route: "/v1/catalog", requests: 3, bytes: 9 }]);
  });

  it("keeps the last 100 errors of a key", async () => {
    const subject = `key_${crypto.randomUUID()}`;
    const work: Promise<unknown>[] = [];
    const meter = new UsageMeter();
    const sink = { db: env.CATALOG_DB, waitUntil: (w: Promise<unknown>) => work.push(w), delayMs: 0 };
    const sent = Array.from({ length: 130 }, (_, i) => ({ ...entry(subject, 404), at: 1_000_000 + i }));
    for (const one of sent.slice(0, 70)) meter.count(one, sink);
    await Promise.all(work.splice(0));
    for (const one of sent.slice(70)) meter.count(one, sink);
    await Promise.all(work.splice(0));
    const kept = await env.CATALOG_DB.prepare("SELECT request_id FROM usage_errors WHERE subject = ? ORDER BY at")
      .bind(subject)
      .all<{ request_id: string }>();
    expect(kept.results.map((row) => row.request_id)).toEqual(sent.slice(30).map((one) => one.requestId));
  });
});
