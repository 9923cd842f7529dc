/**
 * GET /v1/profiles/{product}/{funnel}/history and /v1/profiles/{id}/history after real publishes and
 * rollbacks into the local R2/KV/D1: one entry per event that changed the profile's bytes, newest
 * first, against the changes route's list and the profiles as served. Each test publishes a few
 * releases: given a minute, as a loaded 2-core machine needs.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { rollbackRelease } from "../../src/node/catalog/publish";
import { api } from "./support/api";
import { changesBetween, wholeHistory, type HistoryEntry, type HistoryList } from "./support/history";
import { publish, testRelease, workerStorage } from "./support/releases";
import { resetStorage } from "./support/reset-storage";

const base = testRelease("base");
const edited = testRelease("edited");
const baseId = base.manifest.release_id;
const editedId = edited.manifest.release_id;

interface Served {
  agent_readiness_profile_id: string;
  grade: string;
  overall_outcome: string;
  public_state: string;
  last_tested_at: string;
  primary_finding: { stage: string };
  stages: { stage: string; public_state: string }[];
}

async function served(release: string, product: string, funnel: string): Promise<Served> {
  const res = await api(`/v1/releases/${release}/profiles/${product}/${funnel}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Served;
}

/** The rated fields of an entry, as the profile it describes has them. */
const ratedOf = (profile: Served) => ({
  grade: profile.grade,
  overall_outcome: profile.overall_outcome,
  public_state: profile.public_state,
  primary_stage: profile.primary_finding.stage,
  stages: Object.fromEntries(profile.stages.map((stage) => [stage.stage, stage.public_state])),
  last_tested_at: profile.last_tested_at,
});

beforeEach(() => resetStorage());

describe("profile history", { timeout: 60_000 }, () => {
  it("lists each publish that changed a profile, newest first, with its fields then and what changed", async () => {
    const at = (time: string) => ({ now: () => new Date(time) });
    await publish(base, workerStorage(), at("2026-11-01T00:00:00.000Z"));
    await publish(edited, workerStorage(), at("2026-11-02T00:00:00.000Z"));
    const changed = expectDefined(
      (await changesBetween(editedId, baseId)).find((change) => change.change === "changed"),
      "a changed profile between base and edited",
    );
    const entries = await wholeHistory(`/v1/profiles/${changed.product_key}/${changed.funnel_key}/history`);
    expect(entries).toEqual([
      {
        event_at: "2026-11-02T00:00:00.000Z",
        release_id: editedId,
        previous_release_id: baseId,
        event: "publish",
        change: "changed",
        agent_readiness_profile_id: changed.agent_readiness_profile_id,
        product_key: changed.product_key,
        funnel_key: changed.funnel_key,
        sha256: changed.sha256,
        previous_sha256: changed.previous_sha256,
        ...ratedOf(await served(editedId, changed.product_key, changed.funnel_key)),
        fields_changed: ["last_tested_at"],
      },
      {
        event_at: "2026-11-01T00:00:00.000Z",
        release_id: baseId,
        previous_release_id: null,
        event: "publish",
        change: "added",
        agent_readiness_profile_id: changed.agent_readiness_profile_id,
        product_key: changed.product_key,
        funnel_key: changed.funnel_key,
        sha256: changed.previous_sha256,
        previous_sha256: null,
        ...ratedOf(await served(baseId, changed.product_key, changed.funnel_key)),
        fields_changed: [],
      },
    ]);
    // By id: the same entries.
    expect(await wholeHistory(`/v1/profiles/${changed.agent_readiness_profile_id}/history`)).toEqual(entries);
  });

  it("answers the history of a removed profile, its last entry `removed` with the fields it last had", async () => {
    await publish(base);
    await publish(edited);
    const removed = expectDefined(
      (await changesBetween(editedId, baseId)).find((change) => change.change === "removed"),
      "a removed profile",
    );
    const before = await served(baseId, removed.product_key, removed.funnel_key);
    const [last, firstEntry, ...rest] = await wholeHistory(
      `/v1/profiles/${removed.product_key}/${removed.funnel_key}/history`,
    );
    expect(rest).toEqual([]);
    expect(last).toMatchObject({
      change: "removed",
      release_id: editedId,
      sha256: null,
      previous_sha256: removed.previous_sha256,
      ...ratedOf(before),
      fields_changed: [],
    });
    expect(firstEntry).toMatchObject({ change: "added", release_id: baseId, ...ratedOf(before) });
  });

  it("a profile whose bytes did not change has only its first entry; a rollback is an event of its own", async () => {
    await publish(base);
    await publish(edited);
    await rollbackRelease(workerStorage(), baseId);
    const listed = await changesBetween(editedId, baseId);
    const added = expectDefined(
      listed.find((change) => change.change === "added"),
      "an added profile",
    );
    const changed = expectDefined(
      listed.find((change) => change.change === "changed"),
      "a changed profile",
    );
    // Added by edited, removed again by the rollback to base.
    const addedHistory = await wholeHistory(`/v1/profiles/${added.product_key}/${added.funnel_key}/history`);
    expect(addedHistory.map((entry) => [entry.event, entry.change, entry.release_id])).toEqual([
      ["rollback", "removed", baseId],
      ["publish", "added", editedId],
    ]);
    const changedHistory = await wholeHistory(`/v1/profiles/${changed.agent_readiness_profile_id}/history`);
    expect(changedHistory.map((entry) => [entry.event, entry.change, entry.fields_changed])).toEqual([
      ["rollback", "changed", ["last_tested_at"]],
      ["publish", "changed", ["last_tested_at"]],
      ["publish", "added", []],
    ]);
    const untouched = (await (await api(`/v1/releases/${baseId}/profiles?limit=100`)).json()) as {
      data: { agent_readiness_profile_id: string }[];
    };
    const touchedIds = new Set(listed.map((change) => change.agent_readiness_profile_id));
    const quiet = expectDefined(
      untouched.data.find((profile) => !touchedIds.has(profile.agent_readiness_profile_id)),
      "a profile neither release changed",
    );
    const quietHistory = await wholeHistory(`/v1/profiles/${quiet.agent_readiness_profile_id}/history`);
    expect(quietHistory.map((entry: HistoryEntry) => entry.change)).toEqual(["added"]);
  });

  it("pages with limit and a pinned next, newest first, without repeating or skipping an entry", async () => {
    await publish(base);
    await publish(edited);
    await rollbackRelease(workerStorage(), baseId);
    await publish(edited);
    const changed = expectDefined(
      (await changesBetween(editedId, baseId)).find((change) => change.change === "changed"),
      "a changed profile",
    );
    const path = `/v1/profiles/${changed.product_key}/${changed.funnel_key}/history`;
    const all = await wholeHistory(path);
    expect(all).toHaveLength(4);
    const first = (await (await api(`${path}?limit=3`)).json()) as HistoryList;
    expect(first.has_more).toBe(true);
    expect(first.next).toMatch(new RegExp(`^${path}\\?limit=3&cursor=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
    const second = (await (await api(expectDefined(first.next, "next"))).json()) as HistoryList;
    expect([...first.data, ...second.data]).toEqual(all);
    expect(second).toMatchObject({ has_more: false, next: null });
  });
});
