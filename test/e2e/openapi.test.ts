/**
 * /openapi.json as the real worker serves it, three ways, against one real `wrangler dev` with the
 * sample catalog published (so catalog routes answer 200, 206 and 304, not only 503) and an API key
 * (support/openapi-target.ts):
 * - `redocly lint` with the recommended ruleset finds no error (warnings are printed; today one: the
 *   document names no licence);
 * - every "Try it out" of /docs runs as prefilled: each operation is sent as Swagger UI builds it
 *   from the document's examples (openapi-example-request.ts) with a valid key, and answers without
 *   a 4xx, except the few listed below, each for a reason no example can remove;
 * - a property-based fuzzer (fast-check): for every operation, requests built from its schemas
 *   (valid and invalid parameters and bodies, conditional and range headers, no key, the server's
 *   key, a made-up key) must get a documented status, a documented media type, a body matching its
 *   schema, the required headers, and never a 5xx; every method a path does not document is a 405
 *   whose Allow lists exactly the documented ones. FUZZ_RUNS sets the requests per operation
 *   (default 25). Last: its made-up keys trip the server's invalid-credential throttle.
 * One server for the three, not one each: a `wrangler dev` start is seconds of CPU.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResponseChecker } from "./support/fuzz/checks";
import { requestsFor, type FuzzRequest, type Operation } from "./support/fuzz/requests";
import type { Schema } from "./support/fuzz/schema-arbitrary";
import { exampleRequest, refResolver, type ExampleOperation } from "./support/openapi-example-request";
import { startOpenApiTarget, type OpenApiTarget } from "./support/openapi-target";
import { REPO_ROOT } from "./support/wrangler-dev";

let target: OpenApiTarget;

// A publish and a wrangler dev start: past the default hook timeout on a loaded 2-core machine.
beforeAll(async () => {
  target = await startOpenApiTarget();
}, 300_000);

afterAll(async () => {
  await target?.stop();
});

/** The document's operations, each read as `T` (the fields its test needs). */
const operations = <T>() =>
  Object.entries(target.document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, T>).map(([method, op]) => ({ path, method, op })),
  );

const REDOCLY = path.join(REPO_ROOT, "node_modules/@redocly/cli/bin/cli.js");
interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { severity: string; ruleId: string; message: string }[];
}

describe("redocly lint --extends=recommended", () => {
  it("finds no error in /openapi.json", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "openapi-lint-"));
    try {
      const file = path.join(dir, "openapi.json");
      writeFileSync(file, JSON.stringify(target.document));
      const run = spawnSync(process.execPath, [REDOCLY, "lint", "--extends=recommended", "--format=json", file], {
        encoding: "utf8",
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      });
      const report = JSON.parse(run.stdout) as LintReport;
      for (const problem of report.problems)
        console.log(`redocly ${problem.severity} ${problem.ruleId}: ${problem.message}`);
      expect(report.problems.filter((problem) => problem.severity === "error")).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Operations whose example cannot succeed, the status they answer instead and why. An id of the
 * caller's own (a key, an endpoint, an order) exists only once the caller made it; the document
 * cannot name one for every reader.
 */
const EXCEPTIONS: Record<string, { status: number; why: string }> = {
  "POST /oauth/token": { status: 400, why: "an authorization code exists only after a user's consent" },
  "POST /oauth/revoke": { status: 401, why: "a client id exists once an app is registered" },
  // The SDK's transport requires both in Accept; Swagger UI sends the one media type the answer has.
  "POST /mcp": { status: 406, why: "Swagger UI sends Accept: application/json alone" },
  "DELETE /v1/keys/{id}": { status: 404, why: "a real key id would revoke a key of the caller's" },
  "GET /v1/webhook_endpoints/{id}": { status: 404, why: "the caller's endpoint ids exist once registered" },
  "DELETE /v1/webhook_endpoints/{id}": { status: 404, why: "the caller's endpoint ids exist once registered" },
  "POST /v1/webhook_endpoints/{id}/rotate_secret": {
    status: 404,
    why: "the caller's endpoint ids exist once registered",
  },
  "GET /v1/webhook_endpoints/{id}/deliveries": { status: 404, why: "the caller's endpoint ids exist once registered" },
  "GET /v1/watches/{id}": { status: 404, why: "the caller's watch ids exist once created" },
  "DELETE /v1/watches/{id}": { status: 404, why: "the caller's watch ids exist once created" },
  "GET /v1/watches/{id}/events": { status: 404, why: "the caller's watch ids exist once created" },
  "GET /v1/watches/{id}/events/{event_id}/profiles": { status: 404, why: "the caller's watch ids exist once created" },
  "GET /v2/orders/{id}": { status: 404, why: "the caller's order ids exist once ordered" },
  "POST /v2/orders/{id}/cancel": { status: 404, why: "the caller's order ids exist once ordered" },
  "POST /v2/orders/{id}/test_helpers/advance": { status: 404, why: "the caller's order ids exist once ordered" },
};

describe("the documented examples", () => {
  it("name the release the deployment serves", async () => {
    const current = await fetch(new URL("/v1/releases/current", target.server.url), {
      headers: { Authorization: `Bearer ${target.apiKey}` },
    });
    const releaseId = current.headers.get("Catalog-Release");
    expect(releaseId).toMatch(/^sha256:[0-9a-f]{64}$/);
    const named = operations<ExampleOperation>().flatMap(({ op }) =>
      (op.parameters ?? [])
        .filter((p) => p.name === "release_id" || p.name === "since")
        .map((p) => p.example ?? p.schema?.example),
    );
    expect(named.length).toBeGreaterThan(10);
    expect(new Set(named)).toEqual(new Set([releaseId]));
  });

  it("run as Swagger UI prefills them, with no 4xx but the listed ones", { timeout: 120_000 }, async () => {
    const failures: string[] = [];
    for (const { path, method, op } of operations<ExampleOperation>()) {
      const request = exampleRequest(method, path, op, refResolver(target.document), target.apiKey);
      const response = await fetch(new URL(request.path, target.server.url), { ...request, redirect: "manual" });
      const name = `${method.toUpperCase()} ${path}`;
      const wanted = EXCEPTIONS[name]?.status;
      if (wanted ? response.status !== wanted : response.status >= 400)
        failures.push(`${name} → ${request.path}: ${response.status} ${(await response.text()).slice(0, 400)}`);
      else await response.body?.cancel();
    }
    expect(failures).toEqual([]);
  });
});

const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const OTHER_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

function resolver(document: OpenApiTarget["document"]) {
  return (ref: string): Schema =>
    ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<Record<string, unknown>>(
        (node, key) => node[key] as Record<string, unknown>,
        document as Record<string, unknown>,
      ) as Schema;
}

async function send(request: FuzzRequest) {
  const res = await fetch(new URL(request.path, target.server.url), {
    method: request.method,
    headers: request.headers,
    body: request.body,
    redirect: "manual",
  });
  return { status: res.status, headers: res.headers, body: request.method === "HEAD" ? "" : await res.text() };
}

describe("every operation answers as documented", () => {
  it(
    "for generated requests, with and without a key",
    async () => {
      const checker = new ResponseChecker(target.document);
      const resolve = resolver(target.document);
      const failures: string[] = [];
      for (const { path, method, op } of operations<Operation>()) {
        await fc
          .assert(
            fc.asyncProperty(requestsFor(method, path, op, resolve, target.apiKey), async (request) => {
              const problems = checker.failures(request.method, op, await send(request));
              if (problems.length > 0)
                throw new Error(
                  `${request.method} ${request.path} ${JSON.stringify(request.headers)} ${request.body ?? ""}: ${problems.join("; ")}`,
                );
            }),
            { numRuns: RUNS, endOnFailure: true },
          )
          .catch((error: Error) => failures.push(error.cause instanceof Error ? error.cause.message : error.message));
      }
      expect(failures).toEqual([]);
    },
    Math.max(120_000, RUNS * 2_000),
  );
});

describe("a method a path does not document", () => {
  it("is 405 with an Allow of exactly the documented methods", async () => {
    for (const [path, item] of Object.entries(target.document.paths)) {
      // HEAD is answered wherever GET is; the document says so in the GET's description.
      const documented = [...Object.keys(item), ...(item.get ? ["head"] : [])].map((method) => method.toUpperCase());
      const concrete = path.replace(/\{(\w+)\}/g, "0");
      for (const method of OTHER_METHODS.filter((m) => !documented.includes(m))) {
        const res = await fetch(new URL(concrete, target.server.url), { method, redirect: "manual" });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get("allow"), `${method} ${path}`).toBe([...documented, "OPTIONS"].sort().join(", "));
        await res.body?.cancel();
      }
    }
  });
});
