/**
 * Storage that fails for a moment (D1 busy while a publish loads, a lost R2 connection): the
 * worker's reads try again (src/common/transient.ts) and answer as usual; storage that stays down
 * is answered 503 `storage_unavailable` with `Retry-After`, never 500.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { readCurrent } from "../../src/common/catalog/store";
import { READ_RETRIES } from "../../src/common/transient";
import { apiWithBindings } from "./support/api";
import { documentProfile } from "./support/document-profiles";
import { expectProblem } from "./support/problems";
import { publish, testRelease } from "./support/releases";
import { resetStorage } from "./support/reset-storage";
import { busyD1, CONNECTION_LOST, faults, flaky, WORKERD_INTERNAL } from "./support/transient-faults";

const a = testRelease("base");
const QUERY = "/v1/profiles?limit=5";

beforeAll(async () => {
  await resetStorage();
  await publish(a);
});

describe("transient storage failures", () => {
  it("a query meeting D1 busy fewer times than it tries is answered 200", async () => {
    const busy = faults(READ_RETRIES.attempts - 1);
    const res = await apiWithBindings({ ...env, CATALOG_DB: busyD1(env.CATALOG_DB, busy) }, QUERY);
    expect(res.status).toBe(200);
    expect(busy.given).toBe(READ_RETRIES.attempts - 1);
  });

  it("a query meeting D1 busy on every try is 503 storage_unavailable with Retry-After, not 500", async () => {
    const busy = faults(Number.POSITIVE_INFINITY);
    const res = await apiWithBindings({ ...env, CATALOG_DB: busyD1(env.CATALOG_DB, busy) }, QUERY);
    const problem = await expectProblem(res, 503, "storage_unavailable");
    expect(res.headers.get("Retry-After")).toBe("1");
    expect(problem.detail).toMatch(/retry/i);
    expect(busy.given).toBe(READ_RETRIES.attempts);
  });

  it("a profile lookup whose R2 index read loses its connection is tried again and answered 200", async () => {
    const profile = documentProfile(a, 3);
    const lost = faults(2);
    const bindings = { ...env, RELEASES: flaky(env.RELEASES, ["get"], lost, CONNECTION_LOST) };
    const res = await apiWithBindings(
      bindings,
      `/v1/releases/${a.manifest.release_id}/profiles/${profile.productKey}/${profile.funnelKey}`,
    );
    expect(res.status).toBe(200);
    expect(lost.given).toBe(2);
  });

  it("a KV read answered workerd's bare internal error (locally: another workerd holds the file's lock) is tried again", async () => {
    // Seen when a publish read `current` while `npm start`'s server wrote the same state: SQLite's
    // "database is locked" stays in workerd's log, the caller gets only the internal error.
    const locked = faults(READ_RETRIES.attempts - 1);
    const pointer = await readCurrent(flaky(env.CATALOG_KV, ["get"], locked, WORKERD_INTERNAL));
    expect(pointer?.release_id).toBe(a.manifest.release_id);
    expect(locked.given).toBe(READ_RETRIES.attempts - 1);
  });
});
