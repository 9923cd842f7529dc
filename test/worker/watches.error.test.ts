/** Bad watch bodies: one 400 listing every problem, nothing stored; the query checked as GET /v1/profiles checks it. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api } from "./support/api";
import { watchCaller } from "./watches-support";

interface Problem {
  code: string;
  detail: string;
  errors: { path: string; parameter?: string; message: string; code: string }[];
}

const watchCount = async () =>
  (await env.CATALOG_DB.prepare("SELECT count(*) AS n FROM watches").first<{ n: number }>())?.n ?? 0;

describe("POST /v1/watches refusals", () => {
  it.each([
    "grade=Z",
    "grade=A&grade=B",
    "stage.pay=nope&tested_after=2026-13-01T00:00:00Z",
    "colour=red",
    "sort=grade",
    "limit=5",
    "cursor=abc",
    "facets=grade",
    "q=%21%21",
  ])("refuses the query %s with exactly GET /v1/profiles's problem", async (query) => {
    const caller = await watchCaller();
    const before = await watchCount();
    const res = await caller.post({ name: "w", query });
    expect(res.status).toBe(400);
    const problem = await res.json<Problem>();
    const route = await (await api(`/v1/profiles?${query}`)).json<Problem>();
    const pagingOnly = /^(sort|limit|cursor|facets)=/.test(query);
    if (pagingOnly) {
      expect(problem.code).toBe("unknown_parameter");
      expect(problem.errors.map((e) => e.parameter)).toEqual([query.split("=")[0]]);
    } else {
      expect(problem.code).toBe(route.code);
      expect(problem.errors.map(({ parameter, code }) => ({ parameter, code }))).toEqual(
        route.errors.map(({ parameter, code }) => ({ parameter, code })),
      );
    }
    expect(await watchCount()).toBe(before);
  });

  it("lists every problem of a body at once: unknown field, duplicates, a bad query, no name", async () => {
    const caller = await watchCaller();
    const res = await caller.post({
      name: "",
      colour: "red",
      query: "grade=Z",
      profiles: ["arp_kfa3bdccf91c711393576bf510", "arp_kfa3bdccf91c711393576bf510", { product: "A", funnel: "b" }],
    });
    expect(res.status).toBe(400);
    const problem = await res.json<Problem>();
    expect(problem.code).toBe("bad_request");
    expect(problem.errors.map((e) => e.path).sort()).toEqual(
      ["", "colour", "name", "profiles.1", "profiles.2.product", "query.grade"].sort(),
    );
  });

  it("refuses more than 100 profiles and an empty list; accepts a scope not in the catalog", async () => {
    const caller = await watchCaller();
    const many = Array.from({ length: 101 }, (_, i) => ({ product: `p${i}`, funnel: "f" }));
    const over = await (await caller.post({ name: "w", profiles: many })).json<Problem>();
    expect(over.errors).toEqual([
      expect.objectContaining({ path: "profiles", message: "must list at most 100 profiles" }),
    ]);
    expect((await caller.post({ name: "w", profiles: [] })).status).toBe(400);
    const unknown = await caller.post({ name: "later", profiles: [{ product: "not-yet-there", funnel: "anywhere" }] });
    expect(unknown.status).toBe(201);
  });

  it("refuses neither or both of query and profiles, and unknown query parameters on the route", async () => {
    const caller = await watchCaller();
    expect((await (await caller.post({ name: "w" })).json<Problem>()).errors).toEqual([
      expect.objectContaining({ path: "", message: "give exactly one of query and profiles" }),
    ]);
    expect(
      (await caller.post({ name: "w", query: "grade=A", profiles: ["arp_kfa3bdccf91c711393576bf510"] })).status,
    ).toBe(400);
    const res = await caller.as("/v1/watches?x=1");
    expect(await res.json()).toMatchObject({ code: "unknown_parameter" });
  });

  it("answers 404 for a malformed id, 400 for a bad list name", async () => {
    const caller = await watchCaller();
    expect((await caller.as("/v1/watches/nope")).status).toBe(404);
    const watch = await caller.create({ name: "w", query: "grade=A" });
    const bad = await caller.as(
      `/v1/watches/${watch.id}/events/wev_0123456789abcdef0123456789abcdef/profiles?list=all`,
    );
    expect(bad.status).toBe(400);
    const missing = await caller.as(
      `/v1/watches/${watch.id}/events/wev_0123456789abcdef0123456789abcdef/profiles?list=left`,
    );
    expect(await missing.json()).toMatchObject({ code: "watch_event_not_found" });
  });
});
