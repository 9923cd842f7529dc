/**
 * GET /operator/v1/usage (docs/operations.md "Usage"): the deployment's totals, the refusals before
 * authentication by code, and the top accounts and keys by requests and by errors; one account's
 * with `account`; behind the operator secret; every problem of the query one 400.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountWithKey, bearer, call, freshIp, newKey } from "./auth-fixtures";

const SECRET = "operator-secret-for-tests-0123456789abcdef";
const withSecret = { ...env, OPERATOR_SECRET: SECRET } as unknown as Env;
const op = async (query: string, secret = SECRET) => {
  const res = await call(`/operator/v1/usage${query}`, { headers: bearer(secret) }, withSecret);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

interface Rank {
  account_id: string;
  key_id?: string;
  requests: number;
  errors: number;
}

describe("GET /operator/v1/usage", () => {
  it("ranks accounts and keys by requests and errors, and counts refusals before authentication", async () => {
    const busy = await accountWithKey();
    const failing = await newKey(busy.accountId);
    for (let i = 0; i < 30; i++) await call("/v2/cheeses", { headers: bearer(busy.secret) });
    for (let i = 0; i < 25; i++) await call("/v2/cheeses?x=1", { headers: bearer(failing.secret) });
    await call("/v2/cheeses", { headers: { ...bearer("sk_live_not-a-key"), "CF-Connecting-IP": freshIp() } });

    const { status, body } = await op("?granularity=day");
    expect(status).toBe(200);
    expect(body).toMatchObject({ object: "operator_usage", deployment: "production", granularity: "day" });
    const accounts = body.top_accounts as { by_requests: Rank[]; by_errors: Rank[] };
    expect(accounts.by_requests).toContainEqual({ account_id: busy.accountId, requests: 55, errors: 25 });
    const keys = body.top_keys as { by_requests: Rank[]; by_errors: Rank[] };
    expect(keys.by_errors[0]).toEqual({ account_id: busy.accountId, key_id: failing.key.id, requests: 25, errors: 25 });
    expect(keys.by_requests.length).toBeLessThanOrEqual(20);
    const refused = body.unauthenticated as { requests: number; by_code: Record<string, number> };
    expect(refused.by_code.invalid_api_key).toBeGreaterThanOrEqual(1);

    const one = await op(`?account=${busy.accountId}`);
    expect(one.body).toMatchObject({ account_id: busy.accountId, totals: { requests: 55 } });
    expect((one.body.top_keys as { by_requests: Rank[] }).by_requests.map((rank) => rank.key_id)).toEqual([
      busy.key.id,
      failing.key.id,
    ]);
  });

  it("needs the operator secret, and lists every problem of the query in one 400", async () => {
    expect((await op("", "wrong-secret-wrong-secret-wrong-secret")).status).toBe(401);
    const bad = await op("?granularity=week&account=nope&from=2026-13-01T00:00:00Z");
    expect(bad.status).toBe(400);
    expect((bad.body.errors as { parameter: string }[]).map((e) => e.parameter).sort()).toEqual([
      "account",
      "from",
      "granularity",
    ]);
  });
});
