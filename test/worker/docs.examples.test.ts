/**
 * The examples /openapi.json fills in as it is served (src/worker/docs/served-examples.ts): the
 * release id examples name the current release once there is one, and POST /v2/orders's
 * Idempotency-Key example is a fresh UUID in each document, so that two "Try it out" runs of two
 * loads of /docs place two orders.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { EXAMPLE_RELEASE_ID } from "../../src/worker/catalog/params";
import { EXAMPLE_IDEMPOTENCY_KEY } from "../../src/worker/orders/create-order";
import { publish, testRelease } from "./support/releases";

interface Parameter {
  name: string;
  example?: unknown;
  schema?: { example?: unknown };
}
type Document = { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };

const documentNow = async () =>
  (await (await exports.default.fetch(new Request("https://api.test/openapi.json"))).json()) as Document;

const examplesOf = (document: Document, name: string) =>
  Object.values(document.paths).flatMap((item) =>
    Object.values(item).flatMap((op) =>
      (op.parameters ?? []).filter((p) => p.name === name).map((p) => p.example ?? p.schema?.example),
    ),
  );

describe("GET /openapi.json's served examples", () => {
  it("name the current release, once one is published", async () => {
    expect(new Set(examplesOf(await documentNow(), "release_id"))).toEqual(new Set([EXAMPLE_RELEASE_ID]));
    const release = testRelease("base");
    await publish(release);
    const document = await documentNow();
    for (const name of ["release_id", "since"])
      expect(new Set(examplesOf(document, name)), name).toEqual(new Set([release.manifest.release_id]));
  });

  it("give POST /v2/orders a fresh Idempotency-Key each time", async () => {
    const keys = await Promise.all(
      [documentNow(), documentNow()].map(async (d) => examplesOf(await d, "idempotency-key")),
    );
    const [first, second] = keys.map((found) => found[0]);
    expect(keys.map((found) => found.length)).toEqual([1, 1]);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first).not.toBe(second);
    expect(first).not.toBe(EXAMPLE_IDEMPOTENCY_KEY);
  });
});
