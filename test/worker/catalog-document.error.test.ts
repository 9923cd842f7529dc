/** /v1/catalog refusals: unsatisfiable ranges (416) and a deployment with nothing published (503). */
import { beforeEach, describe, expect, it } from "vitest";
import { api } from "./support/api";
import { expectProblem } from "./support/problems";
import { publish, testRelease } from "./support/releases";
import { resetStorage } from "./support/reset-storage";

const release = testRelease("base");
const size = release.manifest.bytes;

describe("nothing published yet", () => {
  beforeEach(() => resetStorage());

  it.each(["/v1/catalog", "/v1/catalog/parts/0", "/v1/releases/current", "/v1/releases"])(
    "GET %s → 503 problem with Retry-After",
    async (path) => {
      const res = await api(path);
      const problem = await expectProblem(res, 503, "catalog_unavailable");
      expect(problem.detail).toContain("No catalog release has been published");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    },
  );

  it("HEAD /v1/catalog → 503 as well", async () => {
    const res = await api("/v1/catalog", { method: "HEAD" });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).not.toBeNull();
  });
});

describe("unsatisfiable ranges → 416 with Content-Range: bytes */size", () => {
  beforeEach(async () => {
    await publish(release);
  });

  it.each([
    [`bytes=${size}-`, "starts at or after the end"],
    [`bytes=${size + 10}-${size + 20}`, "starts at or after the end"],
    ["bytes=-0", "selects no bytes"],
    ["bytes=9-0", "ends before it starts"],
    ["bytes=abc", "is not a byte range"],
    ["bytes=", "names no range"],
  ])("Range: %s", async (range, says) => {
    const res = await api("/v1/catalog", { headers: { Range: range } });
    const problem = await expectProblem(res, 416, "range_not_satisfiable");
    expect(res.headers.get("content-range")).toBe(`bytes */${size}`);
    expect(problem.detail).toContain(says);
  });
});
