/** `catalog:generate`: deterministic, valid, varied profiles of a realistic size. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateProfiles } from "../../src/node/catalog/build/generator";
import { validateProfile } from "../../src/node/catalog/rules";
import { GRADES, SIGNAL_CODES, STAGES } from "../../src/common/catalog/schema";
import { runScript } from "../e2e/support/scripts";

const root = mkdtempSync(path.join(tmpdir(), "catalog-generate-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("generateProfiles", () => {
  const profiles = [...generateProfiles(2000, 3)];

  it("every profile passes every rule, with unique ids and unique (product, funnel)", () => {
    for (const profile of profiles) expect(validateProfile(profile)).toEqual([]);
    expect(new Set(profiles.map((p) => p.agent_readiness_profile_id)).size).toBe(2000);
    expect(new Set(profiles.map((p) => `${p.scope.product.key}/${p.scope.funnel.key}`)).size).toBe(2000);
    expect(new Set(profiles.map((p) => p.policy_digest)).size).toBe(1);
  });

  it("varies: every grade, every stage in both states, every signal code, partial coverage, non-ASCII names", () => {
    expect(new Set(profiles.map((p) => p.grade))).toEqual(new Set(GRADES));
    const seen = new Set(
      profiles.flatMap((p) => p.stages.map((s) => `${s.stage}:${s.outcome}:${s.primary_finding.signal_code}`)),
    );
    for (const stage of STAGES)
      for (const outcome of ["pass", "constrained"])
        for (const code of SIGNAL_CODES[stage]) expect(seen).toContain(`${stage}:${outcome}:${code}`);
    expect(profiles.some((p) => p.coverage.status === "incomplete")).toBe(true);
    expect(profiles.some((p) => p.overall_outcome === "pass")).toBe(true);
    expect(profiles.some((p) => /[^\p{ASCII}]/u.test(p.scope.product.name))).toBe(true);
  });

  it("is deterministic per seed", () => {
    expect([...generateProfiles(50, 3)]).toEqual(profiles.slice(0, 50));
    expect([...generateProfiles(50, 4)]).not.toEqual(profiles.slice(0, 50));
  });

  it("makes profiles of about 4.6 KB", () => {
    const average = profiles.reduce((n, p) => n + Buffer.byteLength(JSON.stringify(p)), 0) / profiles.length;
    expect(average).toBeGreaterThan(4000);
    expect(average).toBeLessThan(5600);
  });
});

describe("npm run catalog:generate", () => {
  it("writes the same ndjson bytes for the same --count and --seed", async () => {
    const run = (out: string) => runScript("generate-profiles.ts", ["--count", "300", "--seed", "9", "--out", out]);
    const first = await run(path.join(root, "a.ndjson"));
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Generated 300 profiles \(\d+ bytes, seed 9\) into .+a\.ndjson/);
    expect((await run(path.join(root, "b.ndjson"))).code).toBe(0);
    const a = readFileSync(path.join(root, "a.ndjson"));
    expect(a.equals(readFileSync(path.join(root, "b.ndjson")))).toBe(true);
    expect(a.toString("utf8").trimEnd().split("\n")).toHaveLength(300);
  });

  it("a usage error exits 2 with the message, then the help", async () => {
    const result = await runScript("generate-profiles.ts", ["--count", "3"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^catalog:generate: --out is required\n\nUsage: npm run catalog:generate -- /);
  });
});
