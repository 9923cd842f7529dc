/**
 * The client package (packages/client) against the real worker: it waits out a 503's Retry-After
 * (on a fake clock) and gets the catalog once it is published; it never retries the worker's 4xx answers;
 * and its readers of a release's changes, which `sync` rebuilds a local copy from, read what the
 * worker serves and refuse what does not match the list.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { CatalogApiError } from "../../packages/client/src/errors.js";
import { createCatalogHttp } from "../../packages/client/src/http-client.js";
import { expectProfileDigest, fetchChanges, openChangedProfiles } from "../../packages/client/src/release-changes.js";
import { expectDefined } from "../../src/common/expect";
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

describe("the client's readers of a release's changes (what sync rebuilds from)", () => {
  const [base, edited, smallest] = [testRelease("base"), testRelease("edited"), testRelease("smallest")];
  const [to, since] = [edited.manifest.release_id, base.manifest.release_id];

  it("fetchChanges returns the API's whole list and the bytes it read", async () => {
    await publish(base);
    await publish(edited);
    const { http } = clientWith();
    const listed = await fetchChanges(http, API_ORIGIN, to, since);
    const raw = await (
      await apiFetch(new Request(`${API_ORIGIN}/v1/releases/${to}/changes?since=${since}&limit=1000`))
    ).text();
    expect(listed.changes).toEqual((JSON.parse(raw) as { data: unknown[] }).data);
    expect(listed.changes).toHaveLength(9);
    expect(listed.bytes).toBe(new TextEncoder().encode(raw).length);
  });

  it("openChangedProfiles reads each added or changed profile's bytes, as in the newer document, digests checked", async () => {
    await publish(base);
    await publish(edited);
    const { http } = clientWith();
    const { changes } = await fetchChanges(http, API_ORIGIN, to, since);
    const reader = await openChangedProfiles(http, API_ORIGIN, to, since);
    let read = 0;
    for (const c of changes.filter((change) => change.change !== "removed")) {
      const [offset, length] = [expectDefined(c.offset, "an offset"), expectDefined(c.length, "a length")];
      const bytes = await reader.read(length);
      expect(bytes).toEqual(edited.document.subarray(offset, offset + length));
      await expectProfileDigest(bytes, expectDefined(c.sha256, "a digest"), c.agent_readiness_profile_id);
      read += length;
    }
    expect(read).toBeGreaterThan(0);
    expect(reader.received).toBe(read);
    await expect(reader.finish()).resolves.toBeUndefined();
  });

  it("refuses a body shorter or longer than the list, and bytes that do not hash to the listed digest", async () => {
    await publish(base);
    await publish(edited);
    const { http } = clientWith();
    const { changes } = await fetchChanges(http, API_ORIGIN, to, since);
    const total = changes.reduce((sum, c) => sum + (c.length ?? 0), 0);
    const short = await openChangedProfiles(http, API_ORIGIN, to, since);
    await expect(short.read(total + 3)).rejects.toThrow(/the body ended 3 bytes early$/);
    const long = await openChangedProfiles(http, API_ORIGIN, to, since);
    await long.read(1);
    await expect(long.finish()).rejects.toThrow(/the body is longer than the change list's profiles$/);
    await expect(expectProfileDigest(new Uint8Array([1]), `sha256:${"0".repeat(64)}`, "p1")).rejects.toThrow(
      /^profile p1: its bytes hash to sha256:[0-9a-f]{64}, the change list says sha256:0{64}$/,
    );
  });

  it("since a release no longer kept: a 410 release_gone CatalogApiError, asked once", async () => {
    await publish(base);
    await publish(edited);
    const { http, requests } = clientWith();
    const error = await fetchChanges(http, API_ORIGIN, to, smallest.manifest.release_id).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(CatalogApiError);
    expect([(error as CatalogApiError).status, (error as CatalogApiError).code]).toEqual([410, "release_gone"]);
    expect(requests).toHaveLength(1);
  });
});
