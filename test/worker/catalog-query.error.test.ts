/**
 * Bad input to the query and browse routes: one 400 problem listing every problem of the query
 * string at once, each as `{parameter, message, allowed?}`; cursors that this query did not make;
 * releases without query rows. Nothing a client sends is ignored or answers 500.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { api } from "./support/api";
import { expectProblem } from "./support/problems";
import { publish, testRelease } from "./support/releases";

const generated = testRelease("generated");
const releaseId = generated.manifest.release_id;

interface Errors {
  errors: { parameter: string; message: string; code: string; allowed?: string[] }[];
}

async function errorsOf(path: string, code: string): Promise<Errors["errors"]> {
  const res = await api(path);
  await expectProblem(res.clone(), 400, code);
  return ((await res.json()) as Errors).errors;
}

describe("GET /v1/profiles: bad input", () => {
  // Loading 400 profiles into D1 takes seconds on a busy machine.
  beforeAll(async () => {
    await publish(generated);
  }, 60_000);

  it("lists every problem at once: unknown parameters, unknown values, dates, limit, too many values", async () => {
    const many = Array.from({ length: 51 }, (_, i) => `p-${i}`).join(",");
    const errors = await errorsOf(
      `/v1/profiles?grade=A,Z&colour=red&tested_after=yesterday&limit=500&product=${many}&sort=best&facets=q&Grade=A`,
      "unknown_parameter",
    );
    const byParameter = Object.fromEntries(errors.map((e) => [e.parameter, e]));
    const errorFor = (parameter: string) => expectDefined(byParameter[parameter], `an error about ${parameter}`);
    expect(Object.keys(byParameter).sort()).toEqual(
      ["Grade", "colour", "facets", "grade", "limit", "product", "sort", "tested_after"].sort(),
    );
    expect(errorFor("grade").allowed).toEqual(["A", "B+", "B", "C+", "C", "D", "F"]);
    expect(errorFor("grade").message).toContain('"Z"');
    expect(errorFor("sort").allowed).toContain("-last_tested_at");
    expect(errorFor("facets").allowed).not.toContain("q");
    expect(errorFor("product").message).toContain("at most 50 values");
    expect(errorFor("colour").message).toMatch(
      /^unknown query parameter "colour": this route accepts .*\btested_after\b/,
    );
  });

  it("says unknown parameters as every route does (one builder), then counts the other problems", async () => {
    const res = await api("/v1/profiles?colour=red&grade=Z&Grade=A");
    const body = (await res.json()) as Errors & { code: string; detail: string };
    expect(body.code).toBe("unknown_parameter");
    expect(body.detail).toMatch(
      /^2 unknown query parameters "colour", "Grade": this route accepts .*\bgrade\b.*\. 1 more problem in errors\[\]\.$/,
    );
    expect(body.errors.map((e) => e.parameter)).toEqual(["colour", "Grade", "grade"]);
    expect(body.errors[2]?.allowed).toContain("A");
  });

  it("an unknown value alone is invalid_parameter, with the allowed values", async () => {
    const errors = await errorsOf("/v1/profiles?stage.pay=maybe", "invalid_parameter");
    expect(errors).toEqual([
      {
        parameter: "stage.pay",
        path: "stage.pay",
        code: "invalid_parameter",
        message: '"maybe" is not an allowed value',
        allowed: ["ready", "limited"],
      },
    ]);
  });

  it("gives each problem one entry, per parameter, with a documented code", async () => {
    const errors = await errorsOf(
      "/v1/profiles?colour=red&grade=Z&limit=0&tested_before=soon&stage.pay=maybe",
      "unknown_parameter",
    );
    // The unknown parameter first, then one entry per refused parameter (in the route's order).
    expect(errors[0]).toMatchObject({ parameter: "colour", code: "unknown_parameter" });
    expect(errors.slice(1).map((e) => [e.parameter, e.code])).toEqual(
      expect.arrayContaining([
        ["grade", "invalid_parameter"],
        ["limit", "invalid_parameter"],
        ["tested_before", "invalid_parameter"],
        ["stage.pay", "invalid_parameter"],
      ]),
    );
    expect(errors).toHaveLength(5);
  });

  for (const [query, parameter] of [
    ["limit=0x10", "limit"],
    ["limit=1e1", "limit"],
    ["limit=%205", "limit"],
    ["limit=5.0", "limit"],
    ["tested_after=2026-02-30T00:00:00Z", "tested_after"],
    ["tested_after=2024-02-29T24:00:00Z", "tested_after"],
    ["tested_after=2026-04-31T00:00:00Z", "tested_after"],
    ["tested_after=2026-11-01T00:00:60Z", "tested_after"],
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=ten", "limit"],
    ["tested_before=2026-13-01T00:00:00Z", "tested_before"],
    ["tested_before=2026-11-01T00:00:00%2B01:00", "tested_before"],
    ["q=---", "q"],
    ["grade=A&grade=B", "grade"],
    ["product=Not_A_Key", "product"],
    ["entity=arp_x", "entity"],
    ["facets=grade,colour", "facets"],
  ]) {
    it(`${query} is invalid_parameter naming ${parameter}`, async () => {
      const errors = await errorsOf(`/v1/profiles?${query}`, "invalid_parameter");
      expect(errors.map((e) => e.parameter)).toEqual([parameter]);
    });
  }

  it("names an impossible date's reason instead of rolling it over", async () => {
    const [error] = await errorsOf("/v1/profiles?tested_after=2026-02-30T00:00:00Z", "invalid_parameter");
    expect(error?.message).toBe("is not a real date and time: February 2026 has 28 days");
  });

  it("refuses a cursor made by hand with the public SHA-256 tag cursors once had (no key)", async () => {
    const payload = new TextEncoder()
      .encode(JSON.stringify([0, 20]))
      .toBase64({ alphabet: "base64url", omitPadding: true });
    const binding = JSON.stringify([releaseId, [], null, null, null, "catalog"]);
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${binding}\n${payload}`));
    const tag = new Uint8Array(digest).subarray(0, 12).toBase64({ alphabet: "base64url", omitPadding: true });
    const errors = await errorsOf(`/v1/profiles?cursor=${payload}.${tag}`, "invalid_cursor");
    expect(errors).toEqual([expect.objectContaining({ parameter: "cursor", code: "invalid_cursor" })]);
  });

  it("a cursor is refused when changed, or used with other filters or another sort", async () => {
    const first = (await (await api("/v1/profiles?grade=A&limit=2")).json()) as { next: string };
    const cursor = expectDefined(
      new URL(first.next, "https://api.test").searchParams.get("cursor"),
      "a cursor in next",
    );
    expect((await api(first.next)).status).toBe(200);
    for (const path of [
      `/v1/profiles?grade=B&limit=2&cursor=${cursor}`,
      `/v1/profiles?grade=A&sort=grade&limit=2&cursor=${cursor}`,
      `/v1/profiles?grade=A&limit=2&cursor=${cursor.replace(/^./, (c) => (c === "W" ? "X" : "W"))}`,
      `/v1/profiles?grade=A&limit=2&cursor=not-a-cursor`,
      `/v1/profiles?grade=A&limit=2&cursor=${"x".repeat(600)}`,
    ]) {
      const errors = await errorsOf(path, "invalid_cursor");
      expect(errors.map((e) => e.parameter)).toEqual(["cursor"]);
    }
    // The limit is not part of the query a cursor is bound to: a client may change its page size.
    expect((await api(`/v1/profiles?grade=A&limit=5&cursor=${cursor}`)).status).toBe(200);
  });

  it("a malformed release id is invalid_release_id; an unknown release is release_not_found", async () => {
    await expectProblem(await api("/v1/releases/sha256:abc/profiles"), 400, "invalid_release_id");
    await expectProblem(await api(`/v1/releases/${"0".repeat(64)}/profiles`), 404, "release_not_found");
  });

  it("a release published without query rows is release_not_queryable, on every query route", {
    timeout: 60_000,
  }, async () => {
    await env.CATALOG_DB.prepare("DELETE FROM query_releases WHERE release = ?").bind(releaseId.slice(7)).run();
    try {
      for (const route of ["profiles", "products", "funnels"]) {
        const body = await expectProblem(await api(`/v1/releases/${releaseId}/${route}`), 404, "release_not_queryable");
        expect(body.detail).toContain(releaseId);
      }
    } finally {
      // Publishing again finishes the load: the rows are there, only the release's line was missing.
      await publish(generated);
    }
    expect((await api(`/v1/releases/${releaseId}/profiles`)).status).toBe(200);
  });
});

describe("GET /v1/products and /v1/funnels: bad input", () => {
  it("refuses unknown parameters and bad limits, listing each", async () => {
    const errors = await errorsOf("/v1/products?grade=A&limit=0", "unknown_parameter");
    expect(errors.map((e) => e.parameter).sort()).toEqual(["grade", "limit"]);
    const funnels = await errorsOf("/v1/funnels?q=check", "unknown_parameter");
    expect(funnels.map((e) => e.parameter)).toEqual(["q"]);
    await errorsOf("/v1/products?cursor=abc.def", "invalid_cursor");
    // A cursor of one list is no cursor of another.
    const products = (await (await api("/v1/products?limit=1")).json()) as { next: string };
    const cursor = expectDefined(new URL(products.next, "https://api.test").searchParams.get("cursor"), "a cursor");
    await errorsOf(`/v1/funnels?limit=1&cursor=${cursor}`, "invalid_cursor");
  });
});
