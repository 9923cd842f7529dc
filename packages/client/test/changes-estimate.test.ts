/**
 * The estimate sync takes from the release history before it fetches a change list
 * (packages/client/src/changes-estimate.ts): the added and changed profiles summed from `since` to the current
 * release, a loop (a rollback, a release published again) counting nothing, and null wherever the
 * history cannot tell.
 */
import { describe, expect, it } from "vitest";
import { estimateChanges } from "../src/changes-estimate.js";
import { createCatalogHttp } from "../src/http-client.js";
import { problem, scripted } from "./client-fakes.js";

const id = (n: number) => `sha256:${String(n).repeat(64).slice(0, 64)}`;
const event = (release: number, previous: number | null, changed: number | null, current = false) => ({
  release_id: id(release),
  current,
  previous_release_id: previous === null ? null : id(previous),
  changes: changed === null ? null : { added: 1, changed, removed: 2 },
});

async function estimate(events: object[] | Response, from: number, to: number) {
  const body = events instanceof Response ? events : Response.json({ object: "list", data: events, has_more: false });
  const http = createCatalogHttp({ fetch: scripted([body]).fetch });
  return (await estimateChanges(http, "http://api.test", id(to), id(from)))?.fetchedAtMost ?? null;
}

describe("estimateChanges", () => {
  it("sums added and changed over each publish from `since` to the current release", async () => {
    const history = [event(3, 2, 10, true), event(2, 1, 4), event(1, null, null)];
    expect(await estimate(history, 2, 3)).toBe(11);
    expect(await estimate(history, 1, 3)).toBe(11 + 5);
  });

  it("counts nothing for a loop: 1 published, 2 published, rolled back to 1, 2 published again", async () => {
    const history = [event(2, 1, 4, true), event(1, 2, 3), event(2, 1, 4), event(1, 0, 7), event(0, null, null)];
    // 0 → 1 (8), then 1 → 2 (5): the 2 → 1 → 2 round trip between them changed nothing.
    expect(await estimate(history, 0, 2)).toBe(8 + 5);
  });

  it("is null where the history cannot tell", async () => {
    expect(await estimate([event(3, 2, null, true), event(2, 1, 4)], 1, 3)).toBeNull();
    expect(await estimate([event(3, 2, 10, true)], 1, 3)).toBeNull();
    expect(await estimate([event(3, 2, 10)], 2, 3)).toBeNull();
    expect(await estimate(problem(404, "not_found"), 2, 3)).toBeNull();
  });
});
