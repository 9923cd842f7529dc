/**
 * A property-based fuzzer driven by /openapi.json (fast-check), against the real `wrangler dev`
 * with the sample catalog: for every operation, requests built from its schemas (valid and
 * invalid parameters and bodies, conditional and range headers, no key, the server's key, a
 * made-up key) must get a documented status, a documented media type, a body matching its schema,
 * the required headers, and never a 5xx. And every method a path does not document is a 405 whose
 * Allow lists exactly the documented ones. FUZZ_RUNS sets the requests per operation (default 25).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResponseChecker } from "./support/fuzz/checks";
import { requestsFor, type FuzzRequest, type Operation } from "./support/fuzz/requests";
import type { Schema } from "./support/fuzz/schema-arbitrary";
import { startOpenApiTarget, type OpenApiTarget } from "./support/openapi-target";

const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const OTHER_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
let target: OpenApiTarget;

beforeAll(async () => {
  target = await startOpenApiTarget();
});

afterAll(async () => {
  await target?.stop();
});

const operations = () =>
  Object.entries(target.document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, op]) => ({ path, method, op })),
  );

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
      for (const { path, method, op } of operations()) {
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
