/** Malformed ids and part numbers (400), unknown releases and parts (404). */
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "./support/api";
import { expectProblem } from "./support/problems";
import { publish, testRelease } from "./support/releases";

const release = testRelease("base");
const { manifest } = release;
const count = manifest.parts.length;
const unknownId = `sha256:${"e".repeat(64)}`;

beforeAll(async () => {
  await publish(release);
});

describe("400: malformed path parameters", () => {
  it.each(["01", "-1", "x", "1e3", "0x1", "1.0", "9999999999"])("part number %s", async (n) => {
    for (const path of [`/v1/catalog/parts/${n}`, `/v1/releases/${manifest.release_id}/parts/${n}`]) {
      const problem = await expectProblem(await api(path), 400, "invalid_part_number");
      expect(problem.detail).toContain(JSON.stringify(n));
    }
  });

  it.each([
    `sha256:${"A".repeat(64)}`,
    `sha256:${"a".repeat(63)}`,
    `sha1:${"a".repeat(40)}`,
    "latest",
    `sha256:${"a".repeat(65)}`,
  ])("release id %s", async (id) => {
    for (const path of [`/v1/releases/${id}`, `/v1/releases/${id}/parts/0`]) {
      const problem = await expectProblem(await api(path), 400, "invalid_release_id");
      expect(problem.detail).toContain("64 lowercase hex");
    }
  });

  it("a very long id is not echoed at length", async () => {
    const problem = await expectProblem(await api(`/v1/releases/${"z".repeat(5000)}`), 400, "invalid_release_id");
    expect(problem.detail.length).toBeLessThan(300);
  });
});

describe("404: unknown releases and parts", () => {
  it.each([`/v1/releases/${unknownId}`, `/v1/releases/${unknownId}/parts/0`])(
    "%s → release_not_found",
    async (path) => {
      const problem = await expectProblem(await api(path), 404, "release_not_found");
      expect(problem.detail).toContain(unknownId);
    },
  );

  it.each([`/v1/catalog/parts/${count}`, `/v1/releases/${manifest.release_id}/parts/${count}`])(
    "%s → part_not_found naming the part range",
    async (path) => {
      const problem = await expectProblem(await api(path), 404, "part_not_found");
      expect(problem.detail).toContain(`has ${count} parts (0 to ${count - 1})`);
    },
  );
});
