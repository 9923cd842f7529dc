/**
 * The client package declares the API's types itself (it cannot depend on the worker's zod
 * schemas); `npm run typecheck` fails here when they drift apart.
 */
import type { z } from "@hono/zod-openapi";
import { describe, expectTypeOf, it } from "vitest";
import type { Manifest as ClientManifest, Profile as ClientProfile } from "../../packages/client/src/types.js";
import type { Manifest } from "../../src/common/catalog/manifest";
import type { Profile } from "../../src/common/catalog/schema";

describe("the client's types", () => {
  it("Profile is the schema's Profile", () => {
    expectTypeOf<ClientProfile>().toEqualTypeOf<z.infer<typeof Profile>>();
  });

  it("every manifest the worker serves is a client Manifest (the client ignores fields it does not know)", () => {
    expectTypeOf<Manifest>().toExtend<ClientManifest>();
    expectTypeOf<ClientManifest>().toEqualTypeOf<Pick<Manifest, keyof ClientManifest>>();
  });
});
