/**
 * Watches with the same predicate share their lists (src/node/catalog/watch-record.ts,
 * migrations/0007): evaluated once, stored once per history event, each watch's event pointing at
 * them; deleting one watch keeps the lists another still shows, deleting the last removes them.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { publish, testRelease, workerStorage } from "./support/releases";
import { resetStorage } from "./support/reset-storage";
import { eventsOfWatch, fullLists } from "./watch-events.support";
import { watchCaller } from "./watches-support";

const generated = testRelease("generated");
const next = testRelease("generatedNext");
const PAST = { now: () => new Date("2026-01-01T00:00:00.000Z") };
const later = { now: () => new Date(Date.now() + 60_000) };

const entryRows = async () =>
  (await env.CATALOG_DB.prepare("SELECT count(*) AS n FROM watch_event_profiles").first<{ n: number }>())?.n;

beforeEach(() => resetStorage());

describe("watches with the same query", () => {
  it("share one copy of their lists; a deletion keeps what another watch still shows", {
    timeout: 120_000,
  }, async () => {
    await publish(generated, workerStorage(), PAST);
    const [one, two] = [await watchCaller(), await watchCaller()];
    const query = "stage.pay=ready";
    const first = await one.create({ name: "mine", query });
    const second = await two.create({ name: "theirs", query });
    await publish(next, workerStorage(), later);
    const [eventOne, eventTwo] = [
      expectDefined((await eventsOfWatch(one.as, first.id))[0], "the first watch's event"),
      expectDefined((await eventsOfWatch(two.as, second.id))[0], "the second watch's event"),
    ];
    expect(eventOne.id).not.toBe(eventTwo.id);
    const lists = await fullLists(one.as, first.id, eventOne);
    const listed = lists.entered.length + lists.left.length + lists.changed.length;
    expect(listed).toBeGreaterThan(0);
    expect(await fullLists(two.as, second.id, eventTwo)).toEqual(lists);
    expect(await entryRows()).toBe(listed);

    expect((await one.as(`/v1/watches/${first.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await fullLists(two.as, second.id, eventTwo)).toEqual(lists);
    expect((await eventsOfWatch(two.as, second.id)).map((event) => event.id)).toEqual([eventTwo.id]);
    expect((await two.as(`/v1/watches/${second.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await entryRows()).toBe(0);
  });
});
