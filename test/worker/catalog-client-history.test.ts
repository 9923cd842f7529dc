/**
 * The client package's profileHistory() and compareReleases() inside workerd against the real
 * routes: the same entries and summary the routes answer, every page followed, and the routes'
 * refusals as CatalogApiError.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { CatalogApiError, createCatalogClient } from "../../packages/client/src/index.js";
import { expectDefined } from "../../src/common/expect";
import app from "../../src/worker/index";
import { sharedTestKey } from "./auth-fixtures";
import { API_ORIGIN, api } from "./support/api";
import { changesBetween, wholeHistory } from "./support/history";
import { publish, testRelease } from "./support/releases";
import { resetStorage } from "./support/reset-storage";

const base = testRelease("base");
const regraded = testRelease("regraded");
const baseId = base.manifest.release_id;
const regradedId = regraded.manifest.release_id;
const contexts: ExecutionContext[] = [];
const workerFetch = async (request: Request) => {
  const ctx = createExecutionContext();
  contexts.push(ctx);
  return app.fetch(request, env, ctx);
};
const client = async () =>
  createCatalogClient({ baseUrl: API_ORIGIN, apiKey: await sharedTestKey(), fetch: workerFetch });

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

beforeAll(async () => {
  await resetStorage();
  await publish(base);
  await publish(regraded);
}, 60_000);
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((ctx) => waitOnExecutionContext(ctx)));
});

describe("client history", () => {
  it("profileHistory() yields every entry the route lists, by scope and by id, across pages", async () => {
    const changed = expectDefined(
      (await changesBetween(regradedId, baseId)).find((change) => change.change === "changed"),
      "a regraded profile",
    );
    const rest = await wholeHistory(`/v1/profiles/${changed.product_key}/${changed.funnel_key}/history`);
    const catalog = await client();
    expect(await collect(catalog.profileHistory(changed.product_key, changed.funnel_key, { pageSize: 1 }))).toEqual(
      rest,
    );
    expect(await collect(catalog.profileHistory(changed.agent_readiness_profile_id))).toEqual(rest);
  });

  it("compareReleases() answers the summary route's answer, ids with or without sha256:", async () => {
    const rest = await (await api(`/v1/releases/${regradedId}/changes/summary?since=${baseId}`)).json();
    const catalog = await client();
    expect(await catalog.compareReleases(regradedId, baseId)).toEqual(rest);
    expect(await catalog.compareReleases(regradedId.slice(7), baseId.slice(7))).toEqual(rest);
  });

  it("rejects with the route's problem: a profile never published, a release the history does not know", async () => {
    const catalog = await client();
    const never = await collect(catalog.profileHistory("never-published-api", "checkout")).catch((e: unknown) => e);
    expect(never).toBeInstanceOf(CatalogApiError);
    expect(never).toMatchObject({ status: 404, code: "profile_not_found" });
    const unknown = `sha256:${"ab".repeat(32)}`;
    const summary = await catalog.compareReleases(regradedId, unknown).catch((e: unknown) => e);
    expect(summary).toMatchObject({ status: 404, code: "release_not_found" });
  });
});
