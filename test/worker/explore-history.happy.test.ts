/**
 * The explorer's views of change (docs/explorer.md): a profile's timeline and its grade over time
 * as SVG, and the "What changed" page with the profiles behind each count, after real publishes
 * and a rollback into the local R2/KV/D1, checked against what the REST routes answer.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { rollbackRelease } from "../../src/node/catalog/publish";
import { newAccount } from "./auth-fixtures";
import { captureIn, type DashboardClient, signIn, visibleText } from "./dashboard-support";
import { api } from "./support/api";
import { changesBetween, type HistoryEntry, wholeHistory } from "./support/history";
import { publish, testRelease, workerStorage } from "./support/releases";
import { resetStorage } from "./support/reset-storage";

const base = testRelease("base");
const regraded = testRelease("regraded");
const baseId = base.manifest.release_id;
const regradedId = regraded.manifest.release_id;

let client: DashboardClient;

async function html(path: string): Promise<string> {
  const res = await client.get(path);
  const body = await res.text();
  expect(res.status, visibleText(body).slice(0, 600)).toBe(200);
  return body;
}

/** The rows of the table of class `name`, each as its cells' visible text. */
const rowsOf = (page: string, name: string) =>
  [
    ...captureIn(page, new RegExp(`<table class="${name}">[\\s\\S]*?<tbody>([\\s\\S]*?)</tbody>`), name).matchAll(
      /<tr[^>]*>([\s\S]*?)<\/tr>/g,
    ),
  ].map(([, row]) =>
    [...(row ?? "").matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map(([, cell]) => visibleText(cell ?? "")),
  );

const hrefsOf = (page: string, path: string) =>
  [...page.matchAll(new RegExp(`href="(${path}\\?[^"]+)"`, "g"))].map(([, href]) =>
    (href ?? "").replaceAll("&amp;", "&"),
  );

beforeAll(async () => {
  await resetStorage();
  await publish(base);
  await publish(regraded);
  await rollbackRelease(workerStorage(), baseId); // current: base again, after the rollback from regraded
  client = await signIn(await newAccount());
}, 90_000);

describe("a profile's timeline", () => {
  let entries: HistoryEntry[];
  let page: string;
  beforeAll(async () => {
    const changed = expectDefined(
      (await changesBetween(regradedId, baseId)).find((change) => change.change === "changed"),
      "a regraded profile",
    );
    entries = await wholeHistory(`/v1/profiles/${changed.agent_readiness_profile_id}/history`);
    page = await html(`/explore/profiles/${changed.agent_readiness_profile_id}`);
  });

  it("lists every entry the API lists, newest first: date, release, event, change, grade, five stages, fields", () => {
    expect(entries.length).toBe(3);
    const rows = rowsOf(page, "timeline");
    expect(rows).toEqual(
      entries.map((entry) => [
        `${entry.event_at.slice(0, 10)} ${entry.event_at.slice(11, 16)} UTC`,
        entry.release_id,
        entry.event,
        entry.change,
        entry.grade,
        ...Object.values(entry.stages).map((state) => expect.stringContaining(state)),
        entry.change === "changed" ? entry.fields_changed.join(", ") || "none rated (other bytes)" : "—",
      ]),
    );
    expect(rows.map((row) => row[2])).toEqual(["rollback", "publish", "publish"]);
  });

  it("draws the grade over time as SVG, oldest first, named by a title and a summary of every point", () => {
    const svg = captureIn(
      page,
      /(<svg[^>]*aria-labelledby="grade-history-title grade-history-desc"[\s\S]*?<\/svg>)/,
      "the grade chart",
    );
    const points = [...svg.matchAll(/<circle[^>]*data-grade="([^"]+)"/g)].map(([, grade]) => grade);
    const oldestFirst = [...entries].reverse();
    expect(points).toEqual(oldestFirst.map((entry) => entry.grade));
    expect(new Set(points).size).toBe(2); // the grade changed, and changed back
    const ys = [...svg.matchAll(/<circle[^>]*cy="(\d+)"/g)].map(([, y]) => Number(y));
    expect(ys[0]).toBe(ys[2]); // the same grade at the same height
    expect(ys[1]).not.toBe(ys[0]);
    expect(svg).toContain('<title id="grade-history-title">Grade over time</title>');
    const desc = visibleText(captureIn(svg, /<desc[^>]*>([\s\S]*?)<\/desc>/, "the chart's summary"));
    expect(desc).toBe(
      `Grade at each change, oldest first: ${oldestFirst.map((e) => `${e.grade} on ${e.event_at.slice(0, 10)}`).join(", ")}.`,
    );
    expect(svg).not.toMatch(/<script/);
  });
});

describe("What changed", () => {
  it("is linked from /explore", async () => {
    expect(await html("/explore")).toContain('href="/explore/changes"');
  });

  it("shows the latest event's summary as the API answers it, each count linking to its profiles", async () => {
    const rest = await (await api(`/v1/releases/${baseId}/changes/summary?since=${regradedId}`)).json<{
      added: number;
      removed: number;
      changed: number;
      transitions: Record<string, Record<string, number>>;
    }>();
    const page = await html("/explore/changes");
    expect(visibleText(page)).toContain(`Release ${baseId} compared with ${regradedId}`);
    expect(rowsOf(page, "changes-counts")).toEqual([
      ["added", String(rest.added)],
      ["removed", String(rest.removed)],
      ["changed", String(rest.changed)],
    ]);
    const shown = Object.fromEntries(
      [...page.matchAll(/<table class="transitions">([\s\S]*?)<\/table>/g)].map(([table]) => [
        visibleText(captureIn(table, /<caption>([\s\S]*?)<\/caption>/, "caption")),
        Object.fromEntries(rowsOf(table, "transitions").map(([key, n]) => [key, Number(n)])),
      ]),
    );
    expect(shown).toEqual(
      Object.fromEntries(Object.entries(rest.transitions).filter(([, c]) => Object.keys(c).length)),
    );
    expect(rest.changed).toBeGreaterThan(0);
  });

  it("lists behind each count exactly the profiles the changes route lists", async () => {
    const listed = await changesBetween(baseId, regradedId);
    const page = await html("/explore/changes");
    for (const href of hrefsOf(page, "/explore/changes/profiles")) {
      const url = new URL(href, "https://x");
      const change = url.searchParams.get("change");
      const list = await html(href);
      const ids = [...list.matchAll(/<tr data-id="([^"]+)"/g)].map(([, id]) => id);
      const expected = listed.filter((entry) => entry.change === change).map((e) => e.agent_readiness_profile_id);
      if (url.searchParams.has("field")) expect(expected).toEqual(expect.arrayContaining(ids));
      else expect(ids.sort()).toEqual(expected.sort());
    }
  });

  it("compares another pair chosen in the form (release and since)", async () => {
    const page = await html(`/explore/changes?release=${regradedId}&since=${baseId.slice(7)}`);
    expect(visibleText(page)).toContain(`Release ${regradedId} compared with ${baseId}`);
    expect(page).toMatch(new RegExp(`<option value="${regradedId}" selected`));
    const rest = await (await api(`/v1/releases/${regradedId}/changes/summary?since=${baseId}`)).json<{
      changed: number;
    }>();
    expect(rowsOf(page, "changes-counts")[2]).toEqual(["changed", String(rest.changed)]);
  });
});
