/**
 * /openapi.json documents the query routes as the server answers them: every parameter the query
 * schema accepts, each closed filter with a pattern of exactly its allowed values, and the problems
 * bad input gets.
 */
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { VALUE_FIELDS } from "../../src/common/catalog/query-fields";
import { expectDefined } from "../../src/common/expect";
import { api } from "./support/api";
import { operationOf } from "./support/openapi";
import { expectProblem } from "./support/problems";
import { publish, testRelease } from "./support/releases";

interface Parameter {
  name: string;
  in: string;
  description?: string;
  schema?: { pattern?: string; enum?: string[] };
}
interface Operation {
  parameters?: Parameter[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
let paths: Record<string, Record<string, Operation>>;

beforeAll(async () => {
  paths = ((await (await exports.default.fetch("https://api.test/openapi.json")).json()) as { paths: typeof paths })
    .paths;
  await publish(testRelease("generated"));
}, 60_000);

const queryParameters = (path: string) =>
  (operationOf(paths, path, "get").parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);

describe("/openapi.json: the query routes", () => {
  it("lists every query parameter of /v1/profiles and its pinned form", () => {
    const expected = [
      ...VALUE_FIELDS.map((f) => f.name),
      "tested_after",
      "tested_before",
      "q",
      "sort",
      "limit",
      "facets",
      "cursor",
    ].sort();
    expect(queryParameters("/v1/profiles").sort()).toEqual(expected);
    expect(queryParameters("/v1/releases/{release_id}/profiles").sort()).toEqual(expected);
    expect(queryParameters("/v1/products").sort()).toEqual(["cursor", "limit", "q"]);
    expect(queryParameters("/v1/funnels").sort()).toEqual(["cursor", "limit"]);
  });

  it("gives each closed filter a pattern that accepts exactly lists of its allowed values", async () => {
    const parameters = operationOf(paths, "/v1/profiles", "get").parameters ?? [];
    const documented = (name: string) =>
      expectDefined(
        parameters.find((p) => p.name === name),
        `${name} among the parameters of GET /v1/profiles`,
      );
    for (const { name, allowed } of VALUE_FIELDS) {
      if (!allowed) continue;
      const parameter = documented(name);
      const pattern = new RegExp(expectDefined(parameter.schema?.pattern, `a pattern for ${name}`));
      expect(pattern.test(allowed.join(","))).toBe(true);
      expect(pattern.test(`${allowed[0]},nope`)).toBe(false);
      for (const value of allowed) expect(parameter.description).toContain(`\`${value}\``);
      // What the document allows, the server accepts.
      const res = await api(`/v1/profiles?${name}=${encodeURIComponent(allowed.join(","))}&limit=1`);
      expect(res.status, name).toBe(200);
    }
    expect(documented("sort").schema?.enum).toEqual([
      "catalog",
      "grade",
      "-grade",
      "last_tested_at",
      "-last_tested_at",
    ]);
  });

  it("documents the 400 problems of bad input and release_not_queryable", async () => {
    const responses = operationOf(paths, "/v1/profiles", "get").responses;
    const codes = JSON.stringify(responses["400"]) + JSON.stringify(responses["404"]);
    for (const code of ["unknown_parameter", "invalid_parameter", "invalid_cursor", "release_not_queryable"])
      expect(codes).toContain(code);
    await expectProblem(await api("/v1/profiles?nope=1"), 400, "unknown_parameter");
  });
});
