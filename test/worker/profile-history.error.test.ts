/**
 * Bad input to the history routes: each a precise 400 (every query problem at once), 404 for a
 * profile that never existed and for a release the history does not know, never a 500.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { api } from "./support/api";
import { changesBetween, type HistoryList } from "./support/history";
import { publish, testRelease } from "./support/releases";
import { resetStorage } from "./support/reset-storage";

const base = testRelease("base");
const edited = testRelease("edited");
const baseId = base.manifest.release_id;
const editedId = edited.manifest.release_id;
const NEVER = "/v1/profiles/never-existed-api/checkout/history";

interface ProblemBody {
  code: string;
  detail: string;
  errors?: { parameter: string; code: string; message: string }[];
}

async function problem(path: string, status: number): Promise<ProblemBody> {
  const res = await api(path);
  expect([path, res.status]).toEqual([path, status]);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  return (await res.json()) as ProblemBody;
}

let scopePath = "";
let idPath = "";

beforeAll(async () => {
  await resetStorage();
  await publish(base);
  await publish(edited);
  const changed = expectDefined(
    (await changesBetween(editedId, baseId)).find((change) => change.change === "changed"),
    "a changed profile",
  );
  scopePath = `/v1/profiles/${changed.product_key}/${changed.funnel_key}/history`;
  idPath = `/v1/profiles/${changed.agent_readiness_profile_id}/history`;
}, 60_000);

describe("profile history: bad input", () => {
  it("404 profile_not_found for a scope or id that was never in a release", async () => {
    expect((await problem(NEVER, 404)).code).toBe("profile_not_found");
    const id = "arp_0000000000000000000000zzzz";
    expect(await problem(`/v1/profiles/${id}/history`, 404)).toMatchObject({
      code: "profile_not_found",
      detail: expect.stringContaining(id),
    });
  });

  it("malformed keys and ids are their own 400s; /v1/profiles/<product>/history is still the lookup of funnel `history`", async () => {
    expect((await problem("/v1/profiles/Bad_Key/checkout/history", 400)).code).toBe("invalid_scope_key");
    expect((await problem("/v1/profiles/arp_UPPER/history", 400)).code).toBe("invalid_profile_id");
    // Not an id: the profile lookup answers, for the funnel named "history".
    const lookup = await problem("/v1/profiles/northwind-payments-api/history", 404);
    expect(lookup.code).toBe("profile_not_found");
    expect(lookup.detail).toContain("history");
  });

  it("lists every query problem at once: unknown parameters first, then bad values", async () => {
    const body = await problem(`${scopePath}?limit=0&cursor=x&colour=red`, 400);
    expect(body.code).toBe("unknown_parameter");
    expect(body.errors?.map((e) => e.parameter)).toEqual(["colour", "limit"]);
    for (const limit of ["0", "101", "01", "1.5", "-1", "abc", ""]) {
      const bad = await problem(`${scopePath}?limit=${limit}`, 400);
      expect([limit, bad.code, bad.errors?.[0]?.parameter]).toEqual([limit, "invalid_parameter", "limit"]);
    }
    const twice = await problem(`${scopePath}?limit=1&limit=2`, 400);
    expect(twice.errors?.[0]).toMatchObject({ parameter: "limit", message: expect.stringContaining("once") });
  });

  it("refuses a cursor made by hand, edited, or taken from another profile's history", async () => {
    const page = (await (await api(`${scopePath}?limit=1`)).json()) as HistoryList;
    const next = expectDefined(page.next, "a next page");
    const cursor = expectDefined(new URL(next, "https://x").searchParams.get("cursor"), "its cursor");
    const [payload = "", tag = ""] = cursor.split(".");
    const forged = `${btoa(JSON.stringify([99, "a", "b", "c"])).replaceAll("=", "")}.${tag}`;
    for (const bad of ["nonsense", `${payload}.AAAA`, forged, `${payload}.${tag}.x`]) {
      expect((await problem(`${scopePath}?cursor=${bad}`, 400)).code).toBe("invalid_cursor");
    }
    // The same profile by id is another history: its cursors are its own.
    expect((await problem(`${idPath}?cursor=${cursor}`, 400)).code).toBe("invalid_cursor");
    expect((await api(next)).status).toBe(200);
  });
});

describe("changes summary: bad input", () => {
  const summary = (query: string) => `/v1/releases/${editedId}/changes/summary${query}`;

  it("needs since; refuses unknown parameters and malformed ids", async () => {
    expect((await problem(summary(""), 400)).code).toBe("invalid_parameter");
    expect((await problem(summary(`?since=${baseId}&limit=5`), 400)).code).toBe("unknown_parameter");
    expect((await problem(summary("?since=sha256:123"), 400)).code).toBe("invalid_parameter");
    expect((await problem(`/v1/releases/nope/changes/summary?since=${baseId}`, 400)).code).toBe("invalid_release_id");
  });

  it("404 release_not_found naming a release the history does not know, on either side", async () => {
    const unknown = `sha256:${"ab".repeat(32)}`;
    const since = await problem(summary(`?since=${unknown}`), 404);
    expect(since).toMatchObject({ code: "release_not_found", detail: expect.stringContaining(`since ${unknown}`) });
    const newer = await problem(`/v1/releases/${unknown}/changes/summary?since=${baseId}`, 404);
    expect(newer.detail).toContain(`release_id ${unknown}`);
  });
});
