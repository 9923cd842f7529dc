/**
 * catalog:pull in process (the `run` of its cliCommand: what the door runs, with strings for streams),
 * against the stand-in server of pull-fixture-server.ts (a real build served the way the worker
 * serves it, but for the one fault a test asks for): what it writes, what it refuses, what it says,
 * and its exit codes. The door itself (the help on a usage error, the progress on stderr) is run as
 * a child process in pull.test.ts.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCatalog, type BuildResult } from "../../src/node/catalog/build/build";
import { catalogPull } from "../../src/node/catalog/pull-command";
import { runInProcess } from "./cli-in-process";
import { fixtureServer, type Fault } from "./pull-fixture-server";
import { PROFILES_DIR } from "./profile-fixtures";

let dir: string;
let built: BuildResult;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "catalog-pull-command-"));
  built = await buildCatalog({ input: PROFILES_DIR, outDir: path.join(dir, "dist"), partBytes: 7919 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs catalog:pull with `args` against a server with `fault`; what it returned, printed and was asked. */
async function pullFrom(fault: Fault, args: (url: string) => string[]) {
  const server = await fixtureServer(built.releaseDir, fault);
  try {
    return { ...(await runInProcess(catalogPull.run, args(server.url))), requests: server.requests };
  } finally {
    await server.close();
  }
}
const pullTo = (fault: Fault, out = path.join(dir, `${fault}.json`)) =>
  pullFrom(fault, (url) => ["--base-url", url, "--out", out]).then((run) => ({ ...run, out }));

const documentBytes = () =>
  Buffer.concat(
    built.manifest.parts.map((part) => readFileSync(path.join(built.releaseDir, "parts", String(part.index)))),
  );

describe("catalog:pull --out", () => {
  it("a second pull to the same --out downloads no part and says so", async () => {
    const first = await pullTo("none");
    expect(first.code, first.stderr).toBe(0);
    const { release_id, profile_count, bytes, parts } = built.manifest;
    expect(first.stdout).toBe(
      `pulled ${release_id} (${profile_count} profiles, ${bytes} bytes in ${parts.length} parts) to ${first.out}: ` +
        "every part, the document sha256, artifact_sha256 and release_id verified\n",
    );
    expect(readFileSync(first.out).equals(documentBytes())).toBe(true);
    const again = await pullTo("none");
    expect(again.code, again.stderr).toBe(0);
    expect(again.requests).toEqual(["/v1/releases/current"]);
    expect(again.stdout).toContain(`in ${parts.length} parts; ${parts.length} already on disk, not downloaded again)`);
  });

  it.each<[Fault, string]>([
    ["flipped-byte", "part 2 does not match: computed sha256:"],
    ["wrong-content-digest", "Content-Digest is"],
    ["wrong-link", "part 0: Link rel=next is"],
    ["forged-artifact", "release_id does not match"],
  ])("%s → exit 1, the precise mismatch, nothing written", async (fault, message) => {
    const run = await pullTo(fault);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("catalog:pull: verification failed, nothing written");
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe("");
    expect(existsSync(run.out)).toBe(false);
    expect(readdirSync(dir).filter((name) => name.startsWith(`${fault}.json.partial-`))).toEqual([]);
  });

  it("401 → exit 3 after one request, with the server's code and detail", async () => {
    const run = await pullTo("unauthorized");
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("401 invalid_api_key: The API key is not valid.");
    expect(run.requests).toHaveLength(1);
    expect(existsSync(run.out)).toBe(false);
  });
});

describe("catalog:pull usage", () => {
  it.each([
    [["--base-url", "http://localhost:8787"], "one of --out <file> or --sync <dir> are required"],
    [
      ["--base-url", "http://localhost:8787", "--out", "a", "--sync", "b"],
      "one of --out <file> or --sync <dir> are required",
    ],
    [["--base-url", "http://", "--out", "a"], '--base-url "http://" is not a URL (e.g. http://localhost:8787)'],
    [["--base-url", "localhost:8787", "--out", "a"], '--base-url "localhost:8787" is not an http:// or https:// URL'],
    [
      ["--base-url", "ftp://localhost:8787", "--out", "a"],
      '--base-url "ftp://localhost:8787" is not an http:// or https://',
    ],
  ])("%j → exit 2 with the help, before any request", async (args, message) => {
    const run = await runInProcess(catalogPull.run, args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain("Usage: npm run catalog:pull");
  });
});
