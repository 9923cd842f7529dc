/**
 * How publish writes the profile history (D1, src/node/catalog/history-write.ts): after `current`
 * moves, the event's rows then its line, so a publish stopped at any of those writes shows no row of
 * the event, and running it again (or the next publish) finishes the work exactly once. A release
 * published before history existed starts it.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { storageKeys } from "../../src/common/catalog/manifest";
import { expectDefined } from "../../src/common/expect";
import { api } from "./support/api";
import { changesBetween, wholeHistory, type HistoryEntry } from "./support/history";
import { publish, testRelease, workerStorage } from "./support/releases";
import { resetStorage } from "./support/reset-storage";
import { countingStorage } from "./support/storage-faults";

const base = testRelease("base");
const edited = testRelease("edited");
const smaller = testRelease("smaller");
const baseId = base.manifest.release_id;
const editedId = edited.manifest.release_id;
const at = (time: string) => ({ now: () => new Date(time) });
const FIRST = at("2026-11-01T00:00:00.000Z");
const SECOND = at("2026-11-02T00:00:00.000Z");

/** The histories of one changed, one removed and one added profile between base and edited. */
async function touchedPaths(): Promise<string[]> {
  const listed = await changesBetween(editedId, baseId);
  return (["changed", "removed", "added"] as const).map((kind) => {
    const change = expectDefined(
      listed.find((entry) => entry.change === kind),
      `a ${kind} profile`,
    );
    return `/v1/profiles/${change.product_key}/${change.funnel_key}/history`;
  });
}

async function historiesOf(paths: string[]): Promise<(HistoryEntry[] | number)[]> {
  return Promise.all(paths.map(async (path) => ((await api(path)).status === 404 ? 404 : wholeHistory(path))));
}

beforeEach(() => resetStorage());

describe("writing the profile history", () => {
  it("stopped at each write after the flip: no row of the event shows; running it again finishes it once", {
    timeout: 180_000,
  }, async () => {
    await publish(base, workerStorage(), FIRST);
    const counted = countingStorage(workerStorage());
    await publish(edited, counted, SECOND);
    const paths = await touchedPaths();
    const complete = await historiesOf(paths);
    const flip = counted.writes.indexOf(`kv ${storageKeys.current}`);
    const historyWrites = counted.writes.slice(flip + 1);
    expect(historyWrites[0]).toBe(`kv ${storageKeys.history}`);
    expect(historyWrites.slice(1).every((write) => write === "d1 batch")).toBe(true);
    for (let allowed = flip + 1; allowed < counted.writes.length; allowed++) {
      await resetStorage();
      await publish(base, workerStorage(), FIRST);
      const before = await historiesOf(paths);
      await expect(publish(edited, countingStorage(workerStorage(), allowed), SECOND)).rejects.toThrow(
        /simulated outage/,
      );
      // Edited is served, but none of its history rows shows until its event's line is written.
      expect(await historiesOf(paths)).toEqual(before);
      await publish(edited, workerStorage(), SECOND);
      const finished = await historiesOf(paths);
      // A retry after a stop before the KV entry records the event at the retry's time; the rest is identical.
      const withoutTimes = (histories: (HistoryEntry[] | number)[]) =>
        histories.map((h) => (typeof h === "number" ? h : h.map(({ event_at: _, ...entry }) => entry)));
      expect(withoutTimes(finished)).toEqual(withoutTimes(complete));
    }
  });

  it("the next publish finishes the history an interrupted one left", { timeout: 60_000 }, async () => {
    await publish(base, workerStorage(), FIRST);
    const counted = countingStorage(workerStorage());
    await publish(edited, counted, SECOND);
    await resetStorage();
    await publish(base, workerStorage(), FIRST);
    // Stopped at its last write: the event's line.
    const stopped = countingStorage(workerStorage(), counted.writes.length - 1);
    await expect(publish(edited, stopped, SECOND)).rejects.toThrow(/simulated outage/);
    await publish(smaller, workerStorage(), at("2026-11-03T00:00:00.000Z"));
    const [changedPath = ""] = await touchedPaths();
    const events = (await wholeHistory(changedPath)).map((entry) => [entry.release_id, entry.change]);
    expect(events.slice(-2)).toEqual([
      [editedId, "changed"],
      [baseId, "added"],
    ]);
  });

  it("a release published before history existed starts it: its profiles, added, at its published_at", {
    timeout: 60_000,
  }, async () => {
    const first = await publish(base, workerStorage(), FIRST);
    // A deployment from before the history: the release and its KV history entry, no D1 history.
    await env.CATALOG_DB.batch([
      env.CATALOG_DB.prepare("DELETE FROM history_profiles"),
      env.CATALOG_DB.prepare("DELETE FROM history_events"),
    ]);
    const page = (await (await api(`/v1/releases/${baseId}/profiles?limit=1`)).json()) as {
      data: { agent_readiness_profile_id: string }[];
    };
    const firstId = expectDefined(page.data[0], "a profile of base").agent_readiness_profile_id;
    expect((await api(`/v1/profiles/${firstId}/history`)).status).toBe(404);
    await publish(edited, workerStorage(), SECOND);
    const [changedPath = "", removedPath = ""] = await touchedPaths();
    const changed = await wholeHistory(changedPath);
    expect(changed.map((entry) => [entry.event_at, entry.release_id, entry.change, entry.previous_release_id])).toEqual(
      [
        ["2026-11-02T00:00:00.000Z", editedId, "changed", baseId],
        [first.published_at, baseId, "added", null],
      ],
    );
    expect((await wholeHistory(removedPath)).map((entry) => entry.change)).toEqual(["removed", "added"]);
  });
});
