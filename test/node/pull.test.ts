/**
 * catalog:pull refuses anything that does not match what the manifest promises, writes nothing
 * then, and reports the exact mismatch; it never retries an authentication failure.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
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
    expect(run.stderr).toMatch(
      new RegExp(`download parts: ${count}/${count} parts \\(100%\\), [\\d.,]+ parts/s, in [\\d.]+ s`),
    );
    const parts = built.manifest.parts.map((part) =>
      readFileSync(path.join(built.releaseDir, "parts", String(part.index))),
    );
    expect(readFileSync(run.out).equals(Buffer.concat(parts))).toBe(true);
  });

  it("a second pull to the same --out downloads no part and says so", async () => {
    const first = await pullFrom("none");
    expect(first.code, first.stderr).toBe(0);
    const again = await pullFrom("none");
    expect(again.code, again.stderr).toBe(0);
    expect(again.requests).toEqual(["/v1/releases/current"]);
    expect(again.stdout).toContain(
      `in ${built.manifest.parts.length} parts; ${built.manifest.parts.length} already on disk, not downloaded again)`,
    );
  });

  it.each<[Fault, string]>([
    ["flipped-byte", "part 2 does not match: computed sha256:"],
    ["wrong-content-digest", "Content-Digest is"],
    ["wrong-link", "part 0: Link rel=next is"],
    ["forged-artifact", "release_id does not match"],
  ])("%s → exit 1, the precise mismatch, nothing written", async (fault, message) => {
    const run = await pullFrom(fault);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("verification failed, nothing written");
    expect(run.stderr).toContain(message);
    expect(existsSync(run.out)).toBe(false);
    expect(readdirSync(dir).filter((name) => name.startsWith(`${fault}.json.partial-`))).toEqual([]);
  });

  it("401 → exit 3 after one request, with the server's code and detail", async () => {
    const run = await pullFrom("unauthorized");
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("401 invalid_api_key: The API key is not valid.");
    expect(run.requests).toHaveLength(1);
  });

  it("usage errors → exit 2 with the help", async () => {
    const run = await runScript("catalog-pull.ts", ["--out", "x.json"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--base-url <url> and one of --out <file> or --sync <dir> are required");
    expect(run.stderr).toContain("Usage: npm run catalog:pull");
  });
});
