/**
 * Every "Try it out" of /docs runs as prefilled: against the real `wrangler dev` with the sample
 * catalog published (as `npm start` serves it), each operation of /openapi.json is sent as Swagger
 * UI builds it from the document's examples (openapi-example-request.ts) with a valid key, and
 * answers without a 4xx, except the few listed below, each for a reason no example can remove.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleRequest, refResolver, type ExampleOperation } from "./support/openapi-example-request";
import { startOpenApiTarget, type OpenApiTarget } from "./support/openapi-target";

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

let target: OpenApiTarget;

// A publish and a wrangler dev start: past the default hook timeout on a loaded 2-core machine.
beforeAll(async () => {
  target = await startOpenApiTarget();
}, 300_000);

afterAll(async () => {
  await target?.stop();
});

const operations = () =>
  Object.entries(target.document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, ExampleOperation>).map(([method, op]) => ({ path, method, op })),
  );

describe("the documented examples", () => {
  it("name the release the deployment serves", async () => {
    const current = await fetch(new URL("/v1/releases/current", target.server.url), {
      headers: { Authorization: `Bearer ${target.apiKey}` },
    });
    const releaseId = current.headers.get("Catalog-Release");
    expect(releaseId).toMatch(/^sha256:[0-9a-f]{64}$/);
    const named = operations().flatMap(({ op }) =>
      (op.parameters ?? [])
        .filter((p) => p.name === "release_id" || p.name === "since")
        .map((p) => p.example ?? p.schema?.example),
    );
    expect(named.length).toBeGreaterThan(10);
    expect(new Set(named)).toEqual(new Set([releaseId]));
  });

  it("run as Swagger UI prefills them, with no 4xx but the listed ones", { timeout: 120_000 }, async () => {
    const failures: string[] = [];
    for (const { path, method, op } of operations()) {
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
