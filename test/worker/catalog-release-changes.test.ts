/**
 * GET /v1/releases/{id}/changes against an independent diff: both documents parsed with
 * JSON.parse, each profile re-serialized with the `canonicalize` package and hashed, matched by
 * scope and id — not the indexes the worker merges. Each test publishes two or three releases:
 * given a minute, as a loaded 2-core machine needs.
 */
import { env } from "cloudflare:workers";
import canonicalize from "canonicalize";
import { beforeEach, describe, expect, it } from "vitest";
import { hexOf, storageKeys } from "../../src/common/catalog/manifest";
import { expectDefined } from "../../src/common/expect";
import { rollbackRelease } from "../../src/node/catalog/publish";
import { api } from "./support/api";
import type { ListedChange } from "./support/history";
import { EDITED } from "./support/provided-releases";
import { publish, testRelease, workerStorage, type TestRelease } from "./support/releases";
import { resetStorage } from "./support/reset-storage";

const base = testRelease("base");
const edited = testRelease("edited");
const smallest = testRelease("smallest");
/** Never published in this file (isolates keep manifests they read, across resetStorage()). */
const unpublished = testRelease("wide");

interface Listed extends ListedChange {
  offset?: number;
  length?: number;
  previous_offset?: number;
  previous_length?: number;
  href: string;
}

interface Profile {
  agent_readiness_profile_id: string;
  scope: { product: { key: string }; funnel: { key: string } };
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return `sha256:${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** The oracle: what differs from `older` to `newer`, from the parsed documents, in catalog order. */
async function independentDiff(older: TestRelease, newer: TestRelease) {
  const profilesOf = async (release: TestRelease) => {
    const data = (JSON.parse(new TextDecoder().decode(release.document)) as { data: Profile[] }).data;
    const byKey = new Map<string, { profile: Profile; sha256: string }>();
    for (const profile of data) {
      const key = `${profile.scope.product.key} ${profile.scope.funnel.key} ${profile.agent_readiness_profile_id}`;
      byKey.set(key, { profile, sha256: await sha256(canonicalize(profile) as string) });
    }
    return byKey;
  };
  const before = await profilesOf(older);
  const after = await profilesOf(newer);
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort();
  return keys.flatMap((key) => {
    const [was, now] = [before.get(key), after.get(key)];
    const change = !was ? "added" : !now ? "removed" : was.sha256 !== now.sha256 ? "changed" : null;
    if (!change) return [];
    return [
      {
        change,
        id: expectDefined(now ?? was, `profile ${key} on one side`).profile.agent_readiness_profile_id,
        sha256: now?.sha256,
        previous: was?.sha256,
      },
    ];
  });
}

/** Where a listed added or changed profile is in the newer document: its offset and length. */
function placeOf(c: Listed): { offset: number; length: number } {
  const what = `${c.change} profile ${c.agent_readiness_profile_id}`;
  return {
    offset: expectDefined(c.offset, `the offset of the ${what}`),
    length: expectDefined(c.length, `the length of the ${what}`),
  };
}

async function allChanges(release: TestRelease, since: TestRelease, limit: number): Promise<Listed[]> {
  const listed: Listed[] = [];
  let next: string | null =
    `/v1/releases/${release.manifest.release_id}/changes?since=${since.manifest.release_id}&limit=${limit}`;
  while (next) {
    const res = await api(next);
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as { data: Listed[]; next: string | null; has_more: boolean; count: number };
    expect(body.data.length).toBeLessThanOrEqual(limit);
    expect(body.has_more).toBe(body.next !== null);
    listed.push(...body.data);
    next = body.next;
  }
  return listed;
}

beforeEach(() => resetStorage());

describe("changes between two releases", { timeout: 60_000 }, () => {
  it("lists exactly the independent diff, in catalog order, paged or not, with each side's bytes", async () => {
    await publish(base);
    await publish(edited);
    const expected = await independentDiff(base, edited);
    expect(expected.filter((c) => c.change === "changed")).toHaveLength(EDITED.retested.length);
    expect(expected.filter((c) => c.change === "removed")).toHaveLength(EDITED.removed.length);
    expect(expected.filter((c) => c.change === "added")).toHaveLength(EDITED.added);

    const whole = await allChanges(edited, base, 1000);
    expect(await allChanges(edited, base, 2)).toEqual(whole);
    expect(
      whole.map((c) => ({
        change: c.change,
        id: c.agent_readiness_profile_id,
        sha256: c.sha256,
        previous: c.previous_sha256,
      })),
    ).toEqual(expected);
    for (const c of whole) {
      if (c.offset !== undefined) {
        const { offset, length } = placeOf(c);
        const bytes = new TextDecoder().decode(edited.document.subarray(offset, offset + length));
        expect(await sha256(bytes)).toBe(c.sha256);
        expect(c.href).toBe(`/v1/releases/${edited.manifest.release_id}/profiles/${c.agent_readiness_profile_id}`);
      }
      if (c.previous_offset !== undefined) {
        const bytes = new TextDecoder().decode(
          base.document.subarray(
            c.previous_offset,
            c.previous_offset + expectDefined(c.previous_length, "the previous length beside the previous offset"),
          ),
        );
        expect(await sha256(bytes)).toBe(c.previous_sha256);
      }
      if (c.change === "removed") expect(c.href).toContain(base.manifest.release_id);
    }
  });

  it("works in either direction: since the newer release, additions and removals swap", async () => {
    await publish(base);
    await publish(edited);
    const backwards = await allChanges(base, edited, 1000);
    expect(backwards.map((c) => [c.change, c.agent_readiness_profile_id])).toEqual(
      (await independentDiff(edited, base)).map((c) => [c.change, c.id]),
    );
    expect(backwards.filter((c) => c.change === "added")).toHaveLength(EDITED.removed.length);
  });

  it("is computed at publish, against the release it replaced, and counted in the body", async () => {
    await publish(base);
    const result = await publish(edited);
    expect(result.changes).toEqual({
      added: EDITED.added,
      changed: EDITED.retested.length,
      removed: EDITED.removed.length,
    });
    const key = storageKeys.changes(hexOf(edited.manifest.release_id), hexOf(base.manifest.release_id));
    expect(await env.RELEASES.head(key)).not.toBeNull();
    const res = await api(
      `/v1/releases/${edited.manifest.release_id}/changes?since=${base.manifest.release_id}&limit=1`,
    );
    const body = (await res.json()) as { count: number; release_id: string; since: string };
    expect(body).toMatchObject({ count: 9, release_id: edited.manifest.release_id, since: base.manifest.release_id });
    expect(res.headers.get("cache-control")).toBe("private, max-age=31536000, immutable, no-transform");
  });

  it("since the release itself: an empty list", async () => {
    await publish(base);
    const res = await api(
      `/v1/releases/${base.manifest.release_id}/changes?since=${base.manifest.release_id.slice(7)}`,
    );
    expect(await res.json()).toMatchObject({ count: 0, data: [], has_more: false, next: null });
  });
});

describe("the changed profiles' bytes in one body", { timeout: 60_000 }, () => {
  it("are the added and changed profiles' bytes in list order, each matching its sha256", async () => {
    await publish(base);
    await publish(edited);
    const listed = (await allChanges(edited, base, 1000)).filter((c) => c.offset !== undefined);
    const res = await api(
      `/v1/releases/${edited.manifest.release_id}/changes/profiles?since=${base.manifest.release_id}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("catalog-release")).toBe(edited.manifest.release_id);
    const body = new Uint8Array(await res.arrayBuffer());
    let at = 0;
    for (const c of listed) {
      const { offset, length } = placeOf(c);
      const bytes = body.subarray(at, at + length);
      expect(bytes).toEqual(edited.document.subarray(offset, offset + length));
      expect(await sha256(new TextDecoder().decode(bytes))).toBe(c.sha256);
      at += length;
    }
    expect(at).toBe(body.length);
  });

  it("are computed on demand for a pair publish did not compute, and refuse what the list refuses", async () => {
    await publish(smallest);
    await publish(base);
    await publish(edited);
    const path = `/v1/releases/${edited.manifest.release_id}/changes/profiles`;
    const res = await api(`${path}?since=${smallest.manifest.release_id}`);
    expect(res.status).toBe(200);
    const listed = (await allChanges(edited, smallest, 1000)).filter((c) => c.offset !== undefined);
    expect((await res.arrayBuffer()).byteLength).toBe(listed.reduce((sum, c) => sum + placeOf(c).length, 0));
    expect((await api(`${path}?since=${smallest.manifest.release_id}&limit=5`)).status).toBe(400);
    expect((await api(path)).status).toBe(400);
    const same = await api(`${path}?since=${edited.manifest.release_id}`);
    expect((await same.arrayBuffer()).byteLength).toBe(0);
  });
});

describe("changes: refusals", { timeout: 60_000 }, () => {
  it("changed profiles over half the document: their bytes are not kept, 409 changes_too_large; the list is", {
    timeout: 60_000,
  }, async () => {
    const grown = testRelease("wideSmallPages"); // base and 120 more funnels: most of its bytes are new
    await publish(base);
    await publish(grown);
    const path = `/v1/releases/${grown.manifest.release_id}/changes`;
    const res = await api(`${path}/profiles?since=${base.manifest.release_id}`);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { code: string }).code).toBe("changes_too_large");
    const list = await api(`${path}?since=${base.manifest.release_id}&limit=1`);
    expect(((await list.json()) as { count: number }).count).toBe(120);
  });

  it("since a release that is not kept: 410 release_gone naming the oldest kept one", async () => {
    await publish(base);
    await publish(edited);
    const res = await api(`/v1/releases/${edited.manifest.release_id}/changes?since=${smallest.manifest.release_id}`);
    expect(res.status).toBe(410);
    const body = (await res.json()) as { code: string; oldest_kept_release_id: string; detail: string };
    expect(body.code).toBe("release_gone");
    expect(body.oldest_kept_release_id).toBe(base.manifest.release_id);
    expect(body.detail).toContain(base.manifest.release_id);
  });

  it("every bad query parameter is listed in one 400, and stores nothing", async () => {
    await publish(base);
    await publish(edited);
    const path = `/v1/releases/${edited.manifest.release_id}/changes`;
    const res = await api(`${path}?since=nope&limit=0&colour=red`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; errors: { path: string }[] };
    expect(body.code).toBe("unknown_parameter");
    expect(body.errors[0]?.path).toBe("colour");
    expect(body.errors.map((e) => e.path).sort()).toEqual(["colour", "limit", "since"]);
    expect((await api(path)).status).toBe(400);
    for (const limit of ["0x10", "1e1", "%205"]) {
      const hex = await api(`${path}?since=${base.manifest.release_id}&limit=${limit}`);
      expect(((await hex.json()) as { code: string }).code, limit).toBe("invalid_parameter");
    }
    expect((await api(`/v1/releases/nope/changes?since=${base.manifest.release_id}`)).status).toBe(400);
    const unknown = await api(
      `/v1/releases/${unpublished.manifest.release_id}/changes?since=${base.manifest.release_id}`,
    );
    expect(unknown.status).toBe(404);
    const stored = await env.RELEASES.list({ prefix: `releases/${hexOf(edited.manifest.release_id)}/changes/` });
    expect(stored.objects.map((object) => object.key)).toEqual([
      storageKeys.changes(hexOf(edited.manifest.release_id), hexOf(base.manifest.release_id)),
    ]);
  });

  it("a cursor that is not one of the list's: 400 naming the parameter it came by", async () => {
    await publish(base);
    await publish(edited);
    const path = `/v1/releases/${edited.manifest.release_id}/changes?since=${base.manifest.release_id}`;
    for (const [name, value] of [
      ["cursor", "7"],
      ["cursor", "99999999"],
      ["after", "7"],
    ]) {
      const res = await api(`${path}&${name}=${value}`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { code: string; errors: { path: string }[] };
      expect(body.code).toBe("invalid_cursor");
      expect(body.errors[0]?.path).toBe(name);
    }
    // A cursor of this list is not one of the reverse list, though both are lists of changes.
    const first = (await (await api(`${path}&limit=1`)).json()) as { next: string };
    const cursor = new URL(first.next, "https://api.test").searchParams.get("cursor");
    const reverse = `/v1/releases/${base.manifest.release_id}/changes?since=${edited.manifest.release_id}`;
    expect(((await (await api(`${reverse}&cursor=${cursor}`)).json()) as { code: string }).code).toBe("invalid_cursor");
  });

  it("`after`, the cursor's old name, still pages for one release; `next` says `cursor`; both at once is a 400", async () => {
    await publish(base);
    await publish(edited);
    const path = `/v1/releases/${edited.manifest.release_id}/changes?since=${base.manifest.release_id}`;
    const first = (await (await api(`${path}&limit=1`)).json()) as { next: string };
    expect(first.next).toMatch(/&limit=1&cursor=[\w-]+\.[\w-]+$/);
    const cursor = new URL(first.next, "https://api.test").searchParams.get("cursor");
    const byCursor = await (await api(first.next)).json();
    expect(await (await api(`${path}&limit=1&after=${cursor}`)).json()).toEqual(byCursor);
    const both = await api(`${path}&limit=1&after=${cursor}&cursor=${cursor}`);
    expect(both.status).toBe(400);
    expect(((await both.json()) as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(["after"]);
  });
});

describe("GET /v1/releases: the history", { timeout: 60_000 }, () => {
  it("lists publishes and a rollback newest first, with change counts; one is current; pages by `next`", async () => {
    await publish(base);
    await publish(edited);
    await rollbackRelease(workerStorage(), base.manifest.release_id);
    const res = await api("/v1/releases");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Record<string, unknown>[]; has_more: boolean };
    expect(body.data.map((e) => [e.event, e.release_id, e.current, e.previous_release_id])).toEqual([
      ["rollback", base.manifest.release_id, true, edited.manifest.release_id],
      ["publish", edited.manifest.release_id, false, base.manifest.release_id],
      ["publish", base.manifest.release_id, false, null],
    ]);
    expect(body.data[0]?.changes).toEqual({
      added: EDITED.removed.length,
      changed: EDITED.retested.length,
      removed: EDITED.added,
    });
    expect(body.data[1]).toMatchObject({ profile_count: edited.manifest.profile_count, bytes: edited.manifest.bytes });
    expect(body.data[2]?.changes).toBeNull();

    const pages = [];
    let next: string | null = "/v1/releases?limit=1";
    while (next) {
      const page = (await (await api(next)).json()) as { data: unknown[]; next: string | null };
      pages.push(...page.data);
      next = page.next;
    }
    expect(pages).toEqual(body.data);
  });

  it("refuses unknown parameters and a limit out of range", async () => {
    await publish(base);
    const res = await api("/v1/releases?limit=101&sort=asc");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: { path: string }[] }).errors.map((e) => e.path).sort()).toEqual([
      "limit",
      "sort",
    ]);
    for (const limit of ["0x10", "1e1", "%205"])
      expect((await api(`/v1/releases?limit=${limit}`)).status, limit).toBe(400);
    // A sequence number made by hand is no cursor: only `next` hands them out (under either name).
    for (const name of ["cursor", "after"])
      expect(((await (await api(`/v1/releases?${name}=3`)).json()) as { code: string }).code).toBe("invalid_cursor");
  });

  it("pages by `cursor`, and by `after`, its old name, for one release", async () => {
    await publish(base);
    await publish(edited);
    const first = (await (await api("/v1/releases?limit=1")).json()) as { next: string; has_more: boolean };
    expect(first.next).toMatch(/^\/v1\/releases\?limit=1&cursor=[\w-]+\.[\w-]+$/);
    expect(first.has_more).toBe(true);
    const cursor = new URL(first.next, "https://api.test").searchParams.get("cursor");
    const byCursor = await (await api(first.next)).json();
    expect(await (await api(`/v1/releases?limit=1&after=${cursor}`)).json()).toEqual(byCursor);
  });
});
