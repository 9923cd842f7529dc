/** Every catalog route runs the guard it was registered with; registering without one is a type error. */
import { env } from "cloudflare:workers";
import { OpenAPIHono } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { registerCatalogRoutes } from "../../src/worker/catalog";
import type { AppEnv } from "../../src/worker/http/context";

const GUARDED = 418;

function guardedApp() {
  const app = new OpenAPIHono<AppEnv>();
  registerCatalogRoutes(app, { guard: async (c) => c.text("guarded", GUARDED), security: [{ test: [] }] });
  return app;
}

describe("registerCatalogRoutes", () => {
  it("puts the guard in front of every catalog route, before any parameter is read", async () => {
    const app = guardedApp();
    const paths = [...new Set(app.routes.filter((route) => route.method === "GET").map((route) => route.path))];
    expect(paths.length).toBeGreaterThanOrEqual(10);
    for (const path of paths) {
      const res = await app.request(path.replaceAll(/:[^/]+/g, "not-valid"), {}, env);
      expect([path, res.status]).toEqual([path, GUARDED]);
    }
  });

  it("documents the guard's security requirement on every operation", () => {
    const document = guardedApp().getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
    const operations = Object.values(document.paths ?? {}).flatMap((item) =>
      Object.values(item ?? {}).filter((op) => typeof op === "object" && op && "responses" in op),
    );
    expect(operations.length).toBeGreaterThanOrEqual(10);
    for (const operation of operations) expect(operation).toMatchObject({ security: [{ test: [] }] });
  });

  it("cannot be called without a guard: a type error (npm run typecheck fails if one is accepted)", () => {
    const app = new OpenAPIHono<AppEnv>();
    // @ts-expect-error: the access (guard and security) is a required parameter
    expect(() => registerCatalogRoutes(app)).toThrow(TypeError);
    const withoutGuard = () =>
      // @ts-expect-error: a guard is required
      registerCatalogRoutes(app, { security: [] });
    expect(withoutGuard).toBeTypeOf("function");
  });
});
