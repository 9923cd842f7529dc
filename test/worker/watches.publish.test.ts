/**
 * Watch events at publish and rollback (src/node/catalog/watch-record.ts): each watch's entered,
 * left and changed lists are exactly what GET /v1/profiles with its query answers in the two
 * releases, restricted to the profiles that changed; a publish stopped at any write after the flip
 * loses no event and, run again, writes none twice.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { rollbackRelease } from "../../src/node/catalog/publish";
import { storageKeys } from "../../src/common/catalog/manifest";
import { publish, testRelease, workerStorage } from "./support/releases";
import { resetStorage } from "./support/reset-storage";
import { countingStorage } from "./support/storage-faults";
import { watchCaller } from "./watches-support";
import { allChanges, eventsOfWatch, expectedLists, fullLists, queryIds } from "./watch-events.support";

const generated = testRelease("generated");
const next = testRelease("generatedNext");
const genId = generated.manifest.release_id;
const nextId = next.manifest.release_id;
const PAST = { now: () => new Date("2026-01-01T00:00:00.000Z") };
/** After the watches are created: a watch triggers first at the publish after its creation. */
const later = (minutes: number) => ({ now: () => new Date(Date.now() + minutes * 60_000) });

const QUERIES = [
  "grade=A",
  "grade=B,C,F",
  "stage.pay=ready",
  "public_state=limited&stage.operate=ready",
  "overall_outcome=constrained&primary_stage=pay,operate",
  "q=api",
  "q=pay&grade=A,B%2B,B",
  "tested_after=2026-06-01T00:00:00Z",
  "tested_before=2026-06-01T00:00:00.0005Z",
  "coverage_status=complete&freshness=fresh",
];

beforeEach(() => resetStorage());

describe("watch events", () => {
  it("are what GET /v1/profiles answers with the watch's query, in both releases, among the changes", {
    timeout: 180_000,
  }, async () => {
    await publish(generated, workerStorage(), PAST);
    const caller = await watchCaller();
    const page = await queryIds(genId, "grade=A,B");
    const someIds = [...page].slice(0, 3);
    const watches = [
      ...(await Promise.all(QUERIES.map((query) => caller.create({ name: query, query })))),
      await caller.create({ name: "ids", profiles: someIds }),
    ];
    await publish(next, workerStorage(), later(1));
    const changes = await allChanges(nextId, genId);
    let triggered = 0;
    for (const watch of watches) {
      const [before, after] = watch.query
        ? await Promise.all([queryIds(genId, watch.query), queryIds(nextId, watch.query)])
        : [new Set(someIds), new Set(someIds)];
      const expected = expectedLists(changes, before, after);
      const events = await eventsOfWatch(caller.as, watch.id);
      const empty = Object.values(expected).every((list) => list.length === 0);
      expect(events.length, watch.name).toBe(empty ? 0 : 1);
      if (empty) continue;
      triggered++;
      const event = expectDefined(events[0], "the event");
      expect(event).toMatchObject({ release_id: nextId, previous_release_id: genId, watch_id: watch.id });
      // The first triggered watch's lists in pages of 7 (the paging checked), the others' in pages of 100.
      const lists = await fullLists(caller.as, watch.id, event, triggered === 1 ? 7 : 100);
      const idsOf = (entries: { agent_readiness_profile_id: string }[]) =>
        entries.map((entry) => entry.agent_readiness_profile_id);
      expect(
        { entered: idsOf(lists.entered), left: idsOf(lists.left), changed: idsOf(lists.changed) },
        watch.name,
      ).toEqual(expected);
      expect(event.entered_count).toBe(expected.entered.length);
      expect(event.entered).toEqual(lists.entered.slice(0, 100));
      for (const entry of lists.left) expect(entry.sha256).toBeUndefined();
      for (const entry of lists.entered) expect(entry.previous_sha256).toBeUndefined();
    }
    expect(triggered).toBeGreaterThan(5);
  });

  it("a watch created after a publish triggers first at the next one; a rollback triggers too", {
    timeout: 60_000,
  }, async () => {
    await publish(generated, workerStorage(), PAST);
    await publish(next, workerStorage(), PAST);
    const caller = await watchCaller();
    const watch = await caller.create({ name: "all A", query: "grade=A" });
    expect(await eventsOfWatch(caller.as, watch.id)).toEqual([]);
    await rollbackRelease(workerStorage(), genId, later(1));
    const events = await eventsOfWatch(caller.as, watch.id);
    expect(events.map((event) => [event.release_id, event.previous_release_id])).toEqual([[genId, nextId]]);
  });

  it("stopped at each write after the flip: no event lost or doubled; running it again finishes it", {
    timeout: 300_000,
  }, async () => {
    const setUp = async (queries = ["grade=A", "stage.pay=ready", "q=api"]) => {
      await resetStorage();
      await publish(generated, workerStorage(), PAST);
      const caller = await watchCaller();
      const watches = await Promise.all(queries.map((query) => caller.create({ name: query, query })));
      return { caller, watches };
    };
    const snapshot = async (caller: Awaited<ReturnType<typeof setUp>>["caller"], ids: string[]) =>
      Promise.all(
        ids.map(async (id) =>
          // Pages of 100: the first test checks the paging; here, ~30 requests a snapshot, not ~250.
          Promise.all((await eventsOfWatch(caller.as, id)).map((event) => fullLists(caller.as, id, event, 100))),
        ),
      );
    const when = later(1);
    // The profile history's own stops are its test's (profile-history.publish.test.ts): here, one
    // before the history, then each write of the watch events, which come after the history's.
    await setUp([]);
    const withoutWatches = countingStorage(workerStorage());
    await publish(next, withoutWatches, when);
    const first = await setUp();
    const counted = countingStorage(workerStorage());
    await publish(next, counted, when);
    const complete = await snapshot(
      first.caller,
      first.watches.map((w) => w.id),
    );
    expect(complete.flat().length).toBeGreaterThan(0);
    const flip = counted.writes.indexOf(`kv ${storageKeys.current}`);
    const watchWrites = Array.from(
      { length: counted.writes.length - withoutWatches.writes.length },
      (_, i) => withoutWatches.writes.length + i,
    );
    expect(watchWrites.length).toBeGreaterThan(1);
    for (const allowed of [flip + 1, ...watchWrites]) {
      const { caller, watches } = await setUp();
      await expect(publish(next, countingStorage(workerStorage(), allowed), when)).rejects.toThrow(/simulated outage/);
      await publish(next, workerStorage(), when);
      expect(
        await snapshot(
          caller,
          watches.map((w) => w.id),
        ),
        `stopped after write ${allowed}`,
      ).toEqual(complete);
    }
  });
});
