/**
 * catalog:pull as a user runs it (the door: exit codes, the help on a usage error, progress and
 * retries on stderr). What it refuses (anything that does not match what the manifest promises,
 * writing nothing then, with the exact mismatch; an authentication failure, never retried) is
 * tested in process, through its main, in pull-command.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCatalog, type BuildResult } from "../../src/node/catalog/build/build";
import { runScript } from "../e2e/support/scripts";
import { fixtureServer, type Fault } from "./pull-fixture-server";

let dir: string;
let built: BuildResult;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "catalog-pull-"));
  built = await buildCatalog({ input: path.resolve("data/profiles"), outDir: path.join(dir, "dist"), partBytes: 7919 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function pullFrom(fault: Fault) {
  const server = await fixtureServer(built.releaseDir, fault);
  const out = path.join(dir, `${fault}.json`);
  try {
    const run = await runScript("catalog-pull.ts", ["--base-url", server.url, "--out", out]);
    return { ...run, out, requests: server.requests };
  } finally {
    await server.close();
  }
}

describe("catalog:pull verification", () => {
  it("writes the document when everything matches, and retries a 503 after its Retry-After", async () => {
    const run = await pullFrom("busy-once");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("retrying");
    const count = built.manifest.parts.length;
    expect(run.stderr).toContain(`download parts: 0/${count} parts (0%)`);
    // The rate and time follow once the step took 50 ms (progress.ts); a fast machine may take less.
    expect(run.stderr).toMatch(
      new RegExp(`^download parts: ${count}/${count} parts \\(100%\\)(, [\\d.,]+ parts/s, in [\\d.]+ s)?$`, "m"),
    );
    const parts = built.manifest.parts.map((part) =>
      readFileSync(path.join(built.releaseDir, "parts", String(part.index))),
    );
    expect(readFileSync(run.out).equals(Buffer.concat(parts))).toBe(true);
  });

  it("usage errors → exit 2 with the help", async () => {
    const run = await runScript("catalog-pull.ts", ["--out", "x.json"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--base-url <url> and one of --out <file> or --sync <dir> are required");
    expect(run.stderr).toContain("Usage: npm run catalog:pull");
  });
});
