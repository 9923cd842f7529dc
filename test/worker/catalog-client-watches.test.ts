/**
 * The client package's watches.create/list/get/delete/events inside workerd against the real
 * routes: the same watches and events the routes answer, every page followed, refusals as
 * CatalogApiError (a create is never retried).
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CatalogApiError, createCatalogClient } from "../../packages/client/src/index.js";
import app from "../../src/worker/index";
import { accountWithKey, bearer, call } from "./auth-fixtures";
import { API_ORIGIN } from "./support/api";
import { publish, testRelease, workerStorage } from "./support/releases";
import { resetStorage } from "./support/reset-storage";

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe("client watches", () => {
  it("creates, lists, gets, deletes and reads events as the routes answer them", { timeout: 120_000 }, async () => {
    await resetStorage();
    await publish(testRelease("generated"), workerStorage(), { now: () => new Date("2026-01-01T00:00:00Z") });
    const { secret } = await accountWithKey();
    let posts = 0;
    const client = createCatalogClient({
      baseUrl: API_ORIGIN,
      apiKey: secret,
      fetch: async (request) => {
        if (request.method === "POST") posts++;
        return app.fetch(request, env, createExecutionContext());
      },
    });
    const a = await client.watches.create({ name: "A", query: "grade=A" });
    const b = await client.watches.create({ name: "ids", profiles: [{ product: "some-api", funnel: "checkout" }] });
    expect(await collect(client.watches.list())).toEqual([a, b]);
    expect(await client.watches.get(a.id)).toEqual(a);
    await publish(testRelease("generatedNext"), workerStorage(), { now: () => new Date(Date.now() + 60_000) });
    const events = await collect(client.watches.events(a.id));
    const routed = await (await call(`/v1/watches/${a.id}/events`, { headers: bearer(secret) })).json<{
      data: unknown[];
    }>();
    expect(events).toEqual(routed.data);
    expect(events).toHaveLength(1);
    expect(await client.watches.delete(b.id)).toEqual(b);
    await expect(client.watches.get(b.id)).rejects.toMatchObject({ status: 404, code: "watch_not_found" });
    const before = posts;
    const refused = client.watches.create({ name: "bad", query: "grade=Z" });
    await expect(refused).rejects.toBeInstanceOf(CatalogApiError);
    await expect(refused).rejects.toMatchObject({ status: 400, code: "invalid_parameter" });
    expect(posts - before).toBe(1);
  });
});
