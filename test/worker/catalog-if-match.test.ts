/** If-Match on the catalog (RFC 9110 §13.1.1): strong comparison against the ETag, else 412. */
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "./support/api";
import { expectProblem } from "./support/problems";
import { publish, testRelease } from "./support/releases";

const release = testRelease("base");
const { manifest, document } = release;
const documentTag = `"${manifest.release_id}"`;
const otherTag = `"sha256:${"0".repeat(64)}"`;

beforeAll(async () => {
  await publish(release);
});

describe("If-Match on GET /v1/catalog", () => {
  it.each([documentTag, `${otherTag}, ${documentTag}`, "*"])(
    "If-Match: %s holds → 200 with the document",
    async (header) => {
      const res = await api("/v1/catalog", { headers: { "If-Match": header } });
      expect(res.status).toBe(200);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(document);
    },
  );

  it.each([otherTag, `W/${documentTag}`, "not-an-entity-tag"])(
    "If-Match: %s fails → 412 precondition_failed",
    async (header) => {
      const res = await api("/v1/catalog", { headers: { "If-Match": header } });
      const problem = await expectProblem(res, 412, "precondition_failed");
      expect(problem.detail).toContain(documentTag);
    },
  );

  it("is evaluated before If-None-Match and Range (RFC 9110 §13.2.2)", async () => {
    await expectProblem(
      await api("/v1/catalog", { headers: { "If-Match": otherTag, "If-None-Match": documentTag } }),
      412,
      "precondition_failed",
    );
    await expectProblem(
      await api("/v1/catalog", { headers: { "If-Match": otherTag, Range: "bytes=0-9" } }),
      412,
      "precondition_failed",
    );
    const ranged = await api("/v1/catalog", { headers: { "If-Match": documentTag, Range: "bytes=0-9" } });
    expect(ranged.status).toBe(206);
  });

  it("HEAD fails the same way", async () => {
    const res = await api("/v1/catalog", { method: "HEAD", headers: { "If-Match": otherTag } });
    expect(res.status).toBe(412);
  });
});

describe("If-Match on parts and manifests", () => {
  it.each([
    ["/v1/catalog/parts/1", `"${manifest.release_id}/parts/1"`],
    [`/v1/releases/${manifest.release_id}/parts/0`, `"${manifest.release_id}/parts/0"`],
    ["/v1/releases/current", documentTag],
    [`/v1/releases/${manifest.release_id}`, documentTag],
  ])("%s: its own ETag holds, another release's fails with 412", async (path, tag) => {
    expect((await api(path, { headers: { "If-Match": tag } })).status).toBe(200);
    await expectProblem(await api(path, { headers: { "If-Match": otherTag } }), 412, "precondition_failed");
  });

  it("a missing release is still 404, not 412 (RFC 9110 §13.2.1)", async () => {
    await expectProblem(
      await api(`/v1/releases/${otherTag.slice(1, -1)}`, { headers: { "If-Match": otherTag } }),
      404,
      "release_not_found",
    );
  });
});
