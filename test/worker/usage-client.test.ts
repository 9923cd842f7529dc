/**
 * The client package's usage() and usageErrors() inside workerd against the real routes: the
 * routes' answers, every page of errors followed, and a refusal as CatalogApiError.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CatalogApiError, createCatalogClient } from "../../packages/client/src/index.js";
import app from "../../src/worker/index";
import { accountWithKey, bearer, call } from "./auth-fixtures";
import { API_ORIGIN } from "./support/api";

/** Each request waits for its waitUntil work, so the usage it caused is written when it returns. */
const workerFetch = async (request: Request) => {
  const ctx = createExecutionContext();
  const response = await app.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
};

describe("client usage", () => {
  it("usage() answers what GET /v1/usage answers; usageErrors() yields every error across pages", async () => {
    const { secret, key } = await accountWithKey();
    for (const query of ["?a=1", "?b=2", "?c=3", ""]) await call(`/v2/cheeses${query}`, { headers: bearer(secret) });
    const client = createCatalogClient({ baseUrl: API_ORIGIN, apiKey: secret, fetch: workerFetch });
    const report = await client.usage({ key: key.id, granularity: "day" });
    expect(report).toMatchObject({
      key_id: key.id,
      granularity: "day",
      totals: { requests: 4, by_status: { "200": 1, "400": 3 } },
    });
    expect(report.series).toHaveLength(30);

    const errors: string[] = [];
    for await (const error of client.usageErrors({ key: key.id, pageSize: 2 })) errors.push(error.code ?? "");
    expect(errors).toEqual(["unknown_parameter", "unknown_parameter", "unknown_parameter"]);
  });

  it("a refused query rejects with the problem's code", async () => {
    const { secret } = await accountWithKey();
    const client = createCatalogClient({ baseUrl: API_ORIGIN, apiKey: secret, fetch: workerFetch });
    const refused = client.usage({ from: new Date("2026-11-20T00:00:00Z"), to: new Date("2026-11-19T00:00:00Z") });
    await expect(refused).rejects.toBeInstanceOf(CatalogApiError);
    await expect(refused).rejects.toMatchObject({ status: 400, code: "invalid_parameter" });
  });
});
