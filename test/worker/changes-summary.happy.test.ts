/**
 * GET /v1/releases/{id}/changes/summary?since= against an independent count: both documents parsed
 * with JSON.parse, profiles matched by scope and id, fields compared in the test, not the history
 * the worker reads. Also after the older release is pruned from the kept ones.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { api, headerOf } from "./support/api";
import { publish, testRelease, type TestRelease } from "./support/releases";
import { resetStorage } from "./support/reset-storage";

interface Profile {
  agent_readiness_profile_id: string;
  scope: { product: { key: string }; funnel: { key: string } };
  grade: string;
  overall_outcome: string;
  public_state: string;
  primary_finding: { stage: string };
  stages: { stage: string; public_state: string }[];
}

const generated = testRelease("generated");
const generatedNext = testRelease("generatedNext");
const base = testRelease("base");
const regraded = testRelease("regraded");
const later = (["smaller", "smallest", "edited", "wide"] as const).map(testRelease);

const fieldsOf = (p: Profile): Record<string, string> => ({
  grade: p.grade,
  overall_outcome: p.overall_outcome,
  public_state: p.public_state,
  primary_stage: p.primary_finding.stage,
  ...Object.fromEntries(p.stages.map((s) => [`stage.${s.stage}`, s.public_state])),
});

/** The oracle: counts and transitions from the two documents. */
function expectedSummary(newer: TestRelease, older: TestRelease) {
  const byKey = (release: TestRelease) => {
    const data = (JSON.parse(new TextDecoder().decode(release.document)) as { data: Profile[] }).data;
    return new Map(
      data.map((p) => [`${p.scope.product.key} ${p.scope.funnel.key} ${p.agent_readiness_profile_id}`, p]),
    );
  };
  const before = byKey(older);
  const after = byKey(newer);
  const transitions: Record<string, Record<string, number>> = Object.fromEntries(
    Object.keys(fieldsOf([...after.values()][0] as Profile)).map((name) => [name, {}]),
  );
  let changed = 0;
  for (const [key, now] of after) {
    const old = before.get(key);
    if (!old || JSON.stringify(old) === JSON.stringify(now)) continue;
    changed++;
    const [a, b] = [fieldsOf(old), fieldsOf(now)];
    for (const name of Object.keys(a)) {
      if (a[name] === b[name]) continue;
      const counts = transitions[name] ?? {};
      const transition = `${a[name]}\u2192${b[name]}`;
      counts[transition] = (counts[transition] ?? 0) + 1;
      transitions[name] = counts;
    }
  }
  return {
    release_id: newer.manifest.release_id,
    since: older.manifest.release_id,
    added: [...after.keys()].filter((key) => !before.has(key)).length,
    removed: [...before.keys()].filter((key) => !after.has(key)).length,
    changed,
    transitions,
  };
}

const summaryPath = (newer: TestRelease, older: TestRelease) =>
  `/v1/releases/${newer.manifest.release_id}/changes/summary?since=${older.manifest.release_id}`;

beforeAll(async () => {
  await resetStorage();
  await publish(generated);
  await publish(generatedNext);
  await publish(base);
  await publish(regraded);
}, 60_000);

describe("changes summary", () => {
  it("counts added, removed, changed and each field's old→new transitions, as the documents say", async () => {
    const res = await api(summaryPath(regraded, base));
    expect(res.status).toBe(200);
    const body = (await res.json()) as ReturnType<typeof expectedSummary>;
    expect(body).toEqual(expectedSummary(regraded, base));
    expect(body.changed).toBe(3);
    const grades = Object.entries(body.transitions.grade ?? {});
    expect(grades.reduce((sum, [, n]) => sum + n, 0)).toBe(3);
    for (const [key] of grades) expect(key).toMatch(/^[A-F]\+?\u2192[AB]$/);
    // Largest first, ties by key.
    const sorted = [...grades].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
    expect(grades).toEqual(sorted);
    // Across the generated catalogs, which share no profile: only added and removed.
    const apart = (await (await api(summaryPath(generatedNext, generated))).json()) as object;
    expect(apart).toEqual(expectedSummary(generatedNext, generated));
  });

  it("either direction, and a release against itself is all zeros", async () => {
    const back = (await (await api(summaryPath(base, regraded))).json()) as object;
    expect(back).toEqual(expectedSummary(base, regraded));
    expect((await (await api(summaryPath(generated, regraded))).json()) as object).toEqual(
      expectedSummary(generated, regraded),
    );
    const same = (await (await api(summaryPath(generated, generated))).json()) as { changed: number };
    expect(same).toMatchObject({ added: 0, removed: 0, changed: 0 });
  });

  it("of one event and the release before it: the event's own summary, the same as counted from the rows", async () => {
    const summaries = () =>
      env.CATALOG_DB.prepare("SELECT seq, summary FROM history_events ORDER BY seq").all<{ summary: string | null }>();
    // generated started the history (every profile added: no summary); each publish after it has one.
    expect((await summaries()).results.map((event) => event.summary !== null)).toEqual([false, true, true, true]);
    const stored = await (await api(summaryPath(regraded, base))).json();
    expect(stored).toEqual(expectedSummary(regraded, base));
    await env.CATALOG_DB.prepare("UPDATE history_events SET summary = NULL").run();
    expect(await (await api(summaryPath(regraded, base))).json()).toEqual(stored);
    const latest = expectDefined((await summaries()).results.at(-1), "the latest event");
    expect(latest.summary).toBeNull();
  });

  it("is immutable: pinned Cache-Control, a strong ETag, 304 when it is sent back", async () => {
    const res = await api(summaryPath(generatedNext, generated));
    expect(headerOf(res, "cache-control")).toBe("private, max-age=31536000, immutable, no-transform");
    expect(headerOf(res, "catalog-release")).toBe(generatedNext.manifest.release_id);
    const etag = headerOf(res, "etag");
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const again = await api(summaryPath(generatedNext, generated), { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
  });

  it("still compares a release no longer kept, once later publishes pruned it", { timeout: 120_000 }, async () => {
    for (const release of later) await publish(release);
    const kept = (await (await api("/v1/releases?limit=100")).json()) as { data: { release_id: string }[] };
    expect(kept.data.map((event) => event.release_id)).not.toContain(generated.manifest.release_id);
    const newest = later.at(-1) as TestRelease;
    const res = await api(summaryPath(newest, generated));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(expectedSummary(newest, generated));
    expect(await (await api(summaryPath(regraded, base))).json()).toEqual(expectedSummary(regraded, base));
  });
});
