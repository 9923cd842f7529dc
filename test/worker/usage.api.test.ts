/**
 * GET /v1/usage and GET /v1/usage/errors (docs/contract.md "Usage"): the caller's account's counts,
 * whole or per key, with every hour of the range in the series; another account's key is a 404, a
 * key without `read:usage` a 403, and every problem of a query one 400.
 */
import { describe, expect, it } from "vitest";
import { accountWithKey, bearer, call, newKey } from "./auth-fixtures";

const json = async (res: Response) => (await res.json()) as Record<string, unknown>;

async function usageOf(secret: string, query = "") {
  const res = await call(`/v1/usage${query}`, { headers: bearer(secret) });
  return { res, body: await json(res) };
}

describe("GET /v1/usage", () => {
  it("reports one key or the whole account: totals by status and code, every hour of the last 24", async () => {
    const first = await accountWithKey();
    const second = await newKey(first.accountId, { scopes: ["read:catalog"] });
    for (let i = 0; i < 3; i++) await call("/v2/cheeses", { headers: bearer(first.secret) });
    await call("/v2/cheeses", { headers: bearer(second.secret) });
    const { res, body } = await usageOf(first.secret, `?key=${second.key.id}`);
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      object: "usage",
      granularity: "hour",
      key_id: second.key.id,
      totals: { requests: 1, by_status: { "403": 1 }, by_code: { insufficient_scope: 1 } },
    });
    const series = body.series as { start: string; requests: number; errors: number; rate_limited: number }[];
    expect(series).toHaveLength(24);
    expect(series.at(-1)).toMatchObject({ requests: 1, errors: 1, rate_limited: 0 });
    expect(series.slice(0, -1).every((point) => point.requests === 0)).toBe(true);
    expect(Date.parse(body.to as string) - Date.parse(body.from as string)).toBe(24 * 3_600_000);

    const whole = await usageOf(first.secret);
    expect(whole.body).toMatchObject({ key_id: null, totals: { requests: 5, by_status: { "200": 4, "403": 1 } } });
    expect((whole.body.totals as { bytes: number }).bytes).toBeGreaterThan(0);
  });

  it("per day: 30 points by default, and as many as the range asks", async () => {
    const { secret } = await accountWithKey();
    const days = await usageOf(secret, "?granularity=day");
    expect(days.body.series).toHaveLength(30);
    const range = await usageOf(secret, "?granularity=day&from=2026-01-01T00:00:00Z&to=2026-01-08T00:00:00Z");
    expect(range.body).toMatchObject({ from: "2026-01-01T00:00:00.000Z", to: "2026-01-08T00:00:00.000Z" });
    expect(range.body.series).toHaveLength(7);
  });

  it("another account's key is a 404, a key without read:usage a 403", async () => {
    const mine = await accountWithKey();
    const theirs = await accountWithKey();
    const { res, body } = await usageOf(mine.secret, `?key=${theirs.key.id}`);
    expect([res.status, body.code]).toEqual([404, "key_not_found"]);
    const restricted = await newKey(mine.accountId, { scopes: ["read:catalog"] });
    const refused = await usageOf(restricted.secret);
    expect([refused.res.status, refused.body.code]).toEqual([403, "insufficient_scope"]);
  });

  it("lists every problem of the query in one 400", async () => {
    const { secret } = await accountWithKey();
    const reversed = await usageOf(secret, "?from=2026-11-20T00:00:00Z&to=2026-11-19T00:00:00Z&colour=blue");
    expect(reversed.res.status).toBe(400);
    expect((reversed.body.errors as { parameter: string }[]).map((e) => e.parameter)).toEqual(["colour", "from"]);
    const impossible = await usageOf(secret, "?granularity=week&to=2026-02-30T00:00:00Z");
    expect(impossible.body).toMatchObject({ code: "invalid_parameter" });
    expect((impossible.body.errors as { parameter: string }[]).map((e) => e.parameter).sort()).toEqual([
      "granularity",
      "to",
    ]);
    const tooLong = await usageOf(secret, "?from=2026-01-01T00:00:00Z&to=2026-02-02T00:00:00Z");
    expect(tooLong.body).toMatchObject({ status: 400, code: "invalid_parameter" });
    expect(tooLong.body.detail).toContain("at most 744 with granularity=hour");
    const days = await usageOf(secret, "?granularity=day&from=2025-01-01T00:00:00Z&to=2026-02-06T00:00:00Z");
    expect(days.body.detail).toContain("at most 400 with granularity=day");
  });
});

describe("GET /v1/usage/errors", () => {
  it("lists the account's error answers newest first, paged by cursor, with their request ids", async () => {
    const { secret, key } = await accountWithKey();
    const sent: string[] = [];
    for (const path of ["/v2/cheeses?a=1", "/v2/cheeses?b=2", "/v2/cheeses?c=3"]) {
      const res = await call(path, { headers: bearer(secret) });
      sent.push(res.headers.get("Request-Id") ?? "");
    }
    const first = await call(`/v1/usage/errors?key=${key.id}&limit=2`, { headers: bearer(secret) });
    const page = await json(first);
    expect(page).toMatchObject({ object: "list", has_more: true });
    const data = page.data as { request_id: string; status: number; code: string; route: string; method: string }[];
    expect(data.map((e) => e.request_id)).toEqual([sent[2], sent[1]]);
    expect(data[0]).toMatchObject({ status: 400, code: "unknown_parameter", route: "/v2/cheeses", method: "GET" });
    const rest = await json(await call(page.next as string, { headers: bearer(secret) }));
    expect(rest).toMatchObject({ has_more: false, next: null });
    expect((rest.data as { request_id: string }[]).map((e) => e.request_id)).toEqual([sent[0]]);

    const cursor = new URL(page.next as string, "https://api.test").searchParams.get("cursor");
    const elsewhere = await call(`/v1/usage/errors?cursor=${cursor}`, { headers: bearer(secret) });
    expect([elsewhere.status, (await json(elsewhere)).code]).toEqual([400, "invalid_cursor"]);
    const tooMany = await call("/v1/usage/errors?limit=101", { headers: bearer(secret) });
    expect(tooMany.status).toBe(400);
  });
});
