/**
 * /openapi.json names every status and header the server can send (issue 14, part 3): what the
 * middleware adds to every route (400 unknown_host, 405 + Allow, 500, Request-Id), what protect()
 * adds (401 + WWW-Authenticate, 403, 429 + Retry-After and RateLimit, 503), HEAD folded into GET,
 * conditional and range parameters, operationIds and `security: []` on public operations.
 */
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { PROBLEM_TYPES, type ProblemCode } from "../../src/worker/http/problem-types";
import { expectDefined } from "../../src/common/expect";
import { sharedTestKey } from "./auth-fixtures";
import { headerOf } from "./support/api";
import { operationOf } from "./support/openapi";

interface Header {
  required?: boolean;
}
interface Response {
  headers?: Record<string, Header>;
  content?: Record<string, { schema?: { allOf?: [unknown, { properties: { code: { enum: ProblemCode[] } } }] } }>;
}
interface Operation {
  operationId?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; deprecated?: boolean; example?: string; schema?: { example?: string } }[];
  responses: Record<string, Response>;
  "x-unknown-query-parameters"?: string;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { flows?: { authorizationCode: Record<string, unknown> } }> };
}

const ORIGIN = "https://api.test";
let doc: Document;
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
const isProtected = (op: Operation) => (op.security ?? []).some((requirement) => Object.keys(requirement).length > 0);
const codesOf = (response: Response | undefined) =>
  response?.content?.["application/problem+json"]?.schema?.allOf?.[1].properties.code.enum ?? [];

beforeAll(async () => {
  doc = await (await exports.default.fetch(`${ORIGIN}/openapi.json`)).json<Document>();
});

describe("/openapi.json", () => {
  it("gives every operation a unique operationId", () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("says `security: []` on public operations and a credential on the others", () => {
    const byPath = Object.fromEntries(
      operations().map(({ path, method, op }) => [`${method} ${path}`, isProtected(op)]),
    );
    expect(byPath).toMatchObject({
      "get /openapi.json": false,
      "get /docs": false,
      "post /oauth/token": false,
      "get /v1/catalog": true,
      "post /v1/keys": true,
    });
    for (const { op } of operations()) expect(op.security).toBeDefined();
    expect(operationOf(doc.paths, "/v1/catalog", "get").security).toEqual([
      { bearerAuth: ["read:catalog"] },
      { oauth2: ["read:catalog"] },
      { bearerAuth: ["admin"] },
      { oauth2: ["admin"] },
    ]);
    expect(operationOf(doc.paths, "/v1/keys", "post").security).toEqual([{ bearerAuth: [] }]);
  });

  it("documents 400 unknown_host, 405 with Allow, 500 and Request-Id on every operation", () => {
    for (const { path, method, op } of operations())
      expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(["400", "405", "500"]));
    for (const { path, method, op } of operations()) {
      const where = `${method} ${path}`;
      expect(codesOf(op.responses["400"]), where).toContain("unknown_host");
      expect(codesOf(op.responses["405"]), where).toEqual(["method_not_allowed"]);
      expect(op.responses["405"]?.headers?.Allow?.required, where).toBe(true);
      expect(codesOf(op.responses["500"]), where).toEqual(["internal_error"]);
      for (const [status, response] of Object.entries(op.responses))
        expect(response.headers?.["Request-Id"]?.required, `${where} ${status}`).toBe(true);
    }
  });

  it("documents protect()'s answers on every protected operation", () => {
    for (const { path, method, op } of operations().filter(({ op }) => isProtected(op))) {
      const where = `${method} ${path}`;
      expect(codesOf(op.responses["401"]), where).toEqual(
        expect.arrayContaining([
          "unauthenticated",
          "invalid_api_key",
          "invalid_token",
          "revoked_api_key",
          "wrong_deployment",
        ]),
      );
      expect(op.responses["401"]?.headers?.["WWW-Authenticate"]?.required, where).toBe(true);
      expect(op.responses["429"]?.headers, where).toMatchObject({
        "Retry-After": { required: true },
        RateLimit: {},
        "RateLimit-Policy": {},
      });
      expect(codesOf(op.responses["503"]), where).toContain("oauth_not_configured");
      const scoped = expectDefined(op.security, `security on ${where}`).some((requirement) =>
        Object.values(requirement).some((scopes) => scopes.length > 0),
      );
      if (scoped) expect(codesOf(op.responses["403"]), where).toContain("insufficient_scope");
      for (const [status, response] of Object.entries(op.responses))
        if (status < "400") expect(response.headers, `${where} ${status}`).toHaveProperty("RateLimit");
    }
  });

  it("documents 413 and 415 where a JSON body is accepted", () => {
    const create = operationOf(doc.paths, "/v1/keys", "post");
    expect(codesOf(create.responses["413"])).toEqual(["content_too_large"]);
    expect(codesOf(create.responses["415"])).toEqual(["unsupported_media_type"]);
    expect(create.responses["415"]?.headers?.Accept?.required).toBe(true);
  });

  it("folds HEAD into each GET's description instead of listing a twin operation", () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(item.head, path).toBeUndefined();
      if (item.get) expect(item.get.description, path).toContain("HEAD answers the same headers without a body");
    }
  });

  it("documents conditional and range requests on the byte routes", () => {
    for (const path of ["/v1/catalog", "/v1/catalog/parts/{n}", "/v1/releases/{release_id}/parts/{n}"]) {
      const get = operationOf(doc.paths, path, "get");
      expect(
        (get.parameters ?? [])
          .filter((p) => p.in === "header")
          .map((p) => p.name)
          .sort(),
        path,
      ).toEqual(["If-Match", "If-None-Match", "If-Range", "Range"]);
      expect(Object.keys(get.responses), path).toEqual(expect.arrayContaining(["200", "206", "304", "412", "416"]));
      expect(get.responses["416"]?.headers?.["Content-Range"]?.required, path).toBe(true);
      expect(Object.keys(get.responses["206"]?.content ?? {}), path).toEqual(
        Object.keys(get.responses["200"]?.content ?? {}),
      );
    }
  });

  it("files every problem code under its own status", () => {
    for (const { path, method, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        for (const code of codesOf(response))
          expect(String(PROBLEM_TYPES[code].status), `${method} ${path}: ${code}`).toBe(status);
      }
    }
  });

  it("lists on each path exactly the methods the server answers (the Allow of a 405, less OPTIONS)", async () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) =>
        String(item.get?.parameters?.find((p) => p.name === name)?.example ?? exampleOf(item, name)),
      );
      // A method the path does not answer, so the server says which it does.
      const probe = item.patch ? "PUT" : "PATCH";
      const res = await exports.default.fetch(new Request(`${ORIGIN}${concrete}`, { method: probe }));
      const allow = res.headers
        .get("allow")
        ?.split(", ")
        .filter((method) => method !== "OPTIONS")
        .map((method) => method.toLowerCase());
      // HEAD is answered wherever GET is, and documented in the GET's description.
      const documented = [...Object.keys(item), ...(item.get ? ["head"] : [])].sort();
      expect(allow, path).toEqual(documented);
    }
  });

  it("documents the OAuth endpoints' own RFC 6749 answers: a form over 16 KiB is 413 JSON, not a problem", async () => {
    for (const path of ["/oauth/token", "/oauth/revoke"]) {
      const res = await exports.default.fetch(
        new Request(`${ORIGIN}${path}`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: `grant_type=${"a".repeat(20_000)}`,
        }),
      );
      expect(res.status, path).toBe(413);
      const [type] = headerOf(res, "content-type").split(";");
      expect(Object.keys(operationOf(doc.paths, path, "post").responses["413"]?.content ?? {}), path).toContain(type);
    }
    expect(JSON.stringify(operationOf(doc.paths, "/oauth/revoke", "post").responses["400"])).toContain(
      "unauthorized_client",
    );
  });

  it("names the real OAuth endpoints in the oauth2 scheme", () => {
    expect(doc.components.securitySchemes.oauth2?.flows?.authorizationCode).toMatchObject({
      authorizationUrl: `${ORIGIN}/oauth/authorize`,
      tokenUrl: `${ORIGIN}/oauth/token`,
    });
  });
});

describe("unknown query parameters (issue 24, item 12)", () => {
  const concretePath = (path: string, item: Record<string, Operation>) =>
    path.replace(/\{(\w+)\}/g, (_, name: string) => exampleOf(item, name));
  const refuses = (op: Operation) => op["x-unknown-query-parameters"] !== "ignored";

  it("refuses them on every operation but the OAuth endpoints, naming each, and documents the 400", async () => {
    const headers = { Authorization: `Bearer ${await sharedTestKey()}` };
    const checked: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item).filter(([, op]) => refuses(op))) {
        const where = `${method} ${path}`;
        const url = `${ORIGIN}${concretePath(path, item)}?grade=A&colour=red`;
        const res = await exports.default.fetch(new Request(url, { method: method.toUpperCase(), headers }));
        expect(res.status, where).toBe(400);
        if (method !== "head") {
          expect(codesOf(op.responses["400"]), where).toContain("unknown_parameter");
          const problem = await res.json<{ code: string; errors: { parameter: string; code: string }[] }>();
          expect(problem.code, where).toBe("unknown_parameter");
          // The unknown ones first; a route with a required parameter (changes' `since`) adds its own.
          // `grade` is a filter of the query routes: there only `colour` is unknown.
          const accepted = new Set((op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name));
          expect(
            problem.errors.filter((error) => error.code === "unknown_parameter").map((error) => error.parameter),
            where,
          ).toEqual(["grade", "colour"].filter((name) => !accepted.has(name)));
          // Every entry speaks the API (a code of /docs/errors), never the validation library.
          for (const error of problem.errors) expect(Object.keys(PROBLEM_TYPES), where).toContain(error.code);
        }
        checked.push(where);
      }
    }
    expect(checked).toEqual(expect.arrayContaining(["get /v1/catalog", "post /v1/keys", "get /openapi.json"]));
    expect(checked.length).toBeGreaterThan(25);
  });

  it("ignores them on the OAuth endpoints, as RFC 6749 §3.1 requires", () => {
    const ignoring = operations().filter(({ op }) => !refuses(op));
    expect(ignoring.map(({ method, path }) => `${method} ${path}`).sort()).toEqual([
      "get /.well-known/oauth-authorization-server",
      "get /.well-known/oauth-protected-resource",
      "get /.well-known/oauth-protected-resource/mcp",
      "post /oauth/register",
      "post /oauth/revoke",
      "post /oauth/token",
    ]);
  });

  it("names the parameters a route accepts, in the message and in the document", async () => {
    const headers = { Authorization: `Bearer ${await sharedTestKey()}` };
    const res = await exports.default.fetch(`${ORIGIN}/v1/products/x/profiles?limit=5&grade=A`, { headers });
    expect(await res.json()).toMatchObject({
      code: "unknown_parameter",
      detail: 'Unknown query parameter "grade": this route accepts limit, cursor.',
      errors: [{ parameter: "grade", message: 'unknown query parameter "grade": this route accepts limit, cursor' }],
    });
    const none = await exports.default.fetch(`${ORIGIN}/v1/catalog?grade=A`, { headers });
    expect((await none.json<{ detail: string }>()).detail).toBe(
      'Unknown query parameter "grade": this route takes no query parameters.',
    );
    const listing = operationOf(doc.paths, "/v1/products/{product_key}/profiles", "get");
    expect(listing.parameters?.filter((p) => p.in === "query").map((p) => p.name)).toEqual(["limit", "cursor"]);
  });

  it("documents `after` as the deprecated old name of the history's and the changes' `cursor`", () => {
    for (const path of ["/v1/releases", "/v1/releases/{release_id}/changes"]) {
      const query = operationOf(doc.paths, path, "get").parameters?.filter((p) => p.in === "query") ?? [];
      expect(
        query.map((p) => [p.name, p.deprecated ?? false]),
        path,
      ).toEqual(
        expect.arrayContaining([
          ["cursor", false],
          ["after", true],
        ]),
      );
    }
  });
});

function exampleOf(item: Record<string, Operation>, name: string): string {
  const parameter = Object.values(item)
    .flatMap((op) => op.parameters ?? [])
    .find((p) => p.name === name);
  return parameter?.example ?? parameter?.schema?.example ?? "x";
}
