/**
 * The dashboard's Usage page (docs/dashboard.md "Usage"): the signed-in account's requests as a
 * server-drawn SVG chart, totals by status and code, the recent errors with their request ids, and
 * the series as CSV; per key, for the account's keys only.
 */
import { describe, expect, it } from "vitest";
import { bearer, call, newAccount, newKey } from "./auth-fixtures";
import { signIn } from "./dashboard-support";

describe("/dashboard/usage", () => {
  it("shows the account's requests, errors and request ids, and downloads the series", async () => {
    const account = await newAccount();
    const { secret, key } = await newKey(account.accountId, { name: "Nightly sync" });
    await call("/v2/cheeses", { headers: bearer(secret) });
    const failed = await call("/v2/cheeses?colour=blue", { headers: bearer(secret) });
    const client = await signIn(account);

    const page = await client.get("/dashboard/usage");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("<svg");
    expect(html).toContain(failed.headers.get("Request-Id"));
    expect(html).toContain("unknown_parameter");
    expect(html).toContain("2 requests, 1 errors");
    expect(html).not.toMatch(/<script(?![^>]*src="\/dashboard\/copy\.js")/);

    const perKey = await (await client.get(`/dashboard/usage?key=${key.id}&granularity=day`)).text();
    expect(perKey).toContain("Last 30 days: 2 requests");

    const csv = await client.get(`/dashboard/usage.csv?key=${key.id}`);
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const lines = (await csv.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe("start,requests,errors,rate_limited");
    expect(lines).toHaveLength(25);
    expect(lines.at(-1)).toMatch(/,2,1,0$/);
  });

  it("another account's key is not found, an unknown range is a 400 page", async () => {
    const client = await signIn(await newAccount());
    const other = await newKey((await newAccount()).accountId);
    expect((await client.get(`/dashboard/usage?key=${other.key.id}`)).status).toBe(404);
    expect((await client.get("/dashboard/usage?granularity=week")).status).toBe(400);
  });
});

describe("/dashboard/operator/usage", () => {
  it("shows the deployment's busiest accounts and keys, each account linking to its own usage; operators only", async () => {
    const account = await newAccount();
    const { secret, key } = await newKey(account.accountId);
    for (let i = 0; i < 3; i++) await call("/v2/cheeses?x=1", { headers: bearer(secret) });
    const operator = await signIn(await newAccount({ operator: true }));
    const html = await (await operator.get("/dashboard/operator/usage")).text();
    expect(html).toContain("<svg");
    expect(html).toContain("Refused before authentication");
    expect(html).toContain(`href="/dashboard/operator/usage?account=${account.accountId}&amp;granularity=hour"`);
    const mine = await (await operator.get(`/dashboard/operator/usage?account=${account.accountId}`)).text();
    expect(mine).toContain(`Usage of ${account.accountId}`);
    expect(mine).toContain(key.id);
    expect(mine).toContain("3 requests, 3 errors");
    expect((await operator.get("/dashboard/operator")).status).toBe(200);
    const customer = await signIn(account);
    expect((await customer.get("/dashboard/operator/usage")).status).toBe(403);
  });
});
