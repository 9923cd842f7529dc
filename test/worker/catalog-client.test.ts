/**
 * The client package (packages/client) against the real worker: it waits out a 503's Retry-After
 * (on a fake clock) and gets the catalog once it is published; it never retries the worker's 4xx answers.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { CatalogApiError } from "../../packages/client/src/errors.js";
import { createCatalogHttp } from "../../packages/client/src/http-client.js";
import { CATALOG_RETRY_AFTER_SECONDS } from "../../src/worker/catalog/release-lookup";
import { API_ORIGIN, apiFetch } from "./support/api";
import { publish, testRelease } from "./support/releases";
import { resetStorage } from "./support/reset-storage";

const release = testRelease("base");

function clientWith(onSleep: () => Promise<void> = async () => {}) {
  const sleeps: number[] = [];
  const requests: string[] = [];
  const http = createCatalogHttp({
    fetch: (request) => {
      requests.push(new URL(request.url).pathname);
      return apiFetch(request);
    },
    clock: {
      now: () => 0,
      sleep: async (ms) => {
        sleeps.push(ms);
        await onSleep();
      },
    },
    random: () => 0.5,
  });
  return { http, sleeps, requests };
}

beforeEach(() => resetStorage());

describe("catalog client against the worker", () => {
  it("waits the 503's Retry-After while nothing is published, then gets the release published meanwhile", async () => {
    const { http, sleeps, requests } = clientWith(async () => {
      await publish(release);
    });
    const res = await http.get(`${API_ORIGIN}/v1/releases/current`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { release_id: string }).release_id).toBe(release.manifest.release_id);
    expect(sleeps).toEqual([CATALOG_RETRY_AFTER_SECONDS * 1000]);
    expect(requests).toEqual(["/v1/releases/current", "/v1/releases/current"]);
  });

  it.each([
    [`/v1/releases/sha256:${"e".repeat(64)}`, 404, "release_not_found"],
    ["/v1/releases/latest/parts/0", 400, "invalid_release_id"],
    ["/v1/catalog/parts/999", 404, "part_not_found"],
  ])("%s → %i %s, asked once", async (path, status, code) => {
    await publish(release);
    const { http, sleeps, requests } = clientWith();
    const error = (await http.get(`${API_ORIGIN}${path}`).catch((caught: unknown) => caught)) as CatalogApiError;
    expect(error).toBeInstanceOf(CatalogApiError);
    expect([error.status, error.code]).toEqual([status, code]);
    expect(requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});
