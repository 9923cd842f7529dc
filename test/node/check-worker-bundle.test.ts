/**
 * The build's check-worker bundle (src/node/catalog/build/check-pool.ts): bundled once and kept with the
 * size and mtime of every file that went into it, used again while none changed, bundled again
 * when one did, and bundled into the build's scratch directory when the cache cannot be written.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { workerScript } from "../../src/node/catalog/build/check-pool";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "worker-bundle-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

type Inputs = { entry: string; files: Record<string, { size: number; mtimeMs: number }> };
const recordOf = (cache: string) =>
  JSON.parse(readFileSync(path.join(cache, "check-worker.inputs.json"), "utf8")) as Inputs;
const inputsOf = (cache: string) => recordOf(cache).files;
const withFiles = (cache: string, files: Inputs["files"]) => JSON.stringify({ ...recordOf(cache), files });

/** The cache's record with check-worker.ts one byte larger: what editing it would do. */
function editedRecord(cache: string): { file: string; outdated: string } {
  const inputs = inputsOf(cache);
  const file = expectDefined(
    Object.keys(inputs).find((name) => name.endsWith("check-worker.ts")),
    "check-worker.ts among the recorded inputs",
  );
  const input = expectDefined(inputs[file], file);
  return { file, outdated: withFiles(cache, { ...inputs, [file]: { ...input, size: input.size + 1 } }) };
}

describe("the check-worker bundle cache", () => {
  it("bundles once, recording every input, and reuses the bundle while no input changed", () => {
    const cache = path.join(tempDir(), "cache");
    const first = workerScript(tempDir(), cache);
    expect(first).toBe(path.join(cache, "check-worker.mjs"));
    const inputs = Object.keys(inputsOf(cache));
    expect(inputs.some((file) => file.endsWith(path.join("catalog", "build", "check-worker.ts")))).toBe(true);
    expect(inputs.some((file) => file.endsWith(path.join("src", "common", "catalog", "schema.ts")))).toBe(true);

    const written = statSync(first).mtimeMs;
    expect(workerScript(tempDir(), cache)).toBe(first);
    expect(statSync(first).mtimeMs).toBe(written);
  });

  it("bundles again when an input's size or mtime differs from what was recorded", () => {
    const cache = path.join(tempDir(), "cache");
    const bundle = workerScript(tempDir(), cache);
    // What editing the file would do, without touching the repository.
    const { file, outdated } = editedRecord(cache);
    writeFileSync(path.join(cache, "check-worker.inputs.json"), outdated);
    writeFileSync(bundle, "stale");
    expect(workerScript(tempDir(), cache)).toBe(bundle);
    expect(readFileSync(bundle, "utf8")).not.toBe("stale");
    expect(inputsOf(cache)[file]?.size).toBe(statSync(file).size);
  });

  it("bundles again for another checkout sharing the cache (a bundle records its entry point)", () => {
    const cache = path.join(tempDir(), "cache");
    const bundle = workerScript(tempDir(), cache);
    const record = recordOf(cache);
    expect(record.entry.endsWith(path.join("catalog", "build", "check-worker.ts"))).toBe(true);
    // As a second checkout whose node_modules is this one would have left it: same files, its own entry.
    writeFileSync(
      path.join(cache, "check-worker.inputs.json"),
      JSON.stringify({ ...record, entry: "/elsewhere/src/node/catalog/build/check-worker.ts" }),
    );
    writeFileSync(bundle, "another checkout's code");
    expect(workerScript(tempDir(), cache)).toBe(bundle);
    expect(readFileSync(bundle, "utf8")).not.toBe("another checkout's code");
    expect(recordOf(cache).entry).toBe(record.entry);
  });

  it("keeps no bundle made while one of its inputs was being edited", () => {
    const cache = path.join(tempDir(), "cache");
    workerScript(tempDir(), cache);
    const { outdated } = editedRecord(cache);
    writeFileSync(path.join(cache, "check-worker.inputs.json"), outdated);
    // A bundling that started before every input's mtime: as if each had been edited meanwhile.
    const scratch = tempDir();
    expect(workerScript(scratch, cache, () => 0)).toBe(path.join(scratch, "check-worker.mjs"));
    expect(readFileSync(path.join(cache, "check-worker.inputs.json"), "utf8")).toBe(outdated);
  });

  it("bundles into the scratch directory when the cache directory cannot be created", () => {
    const blocked = path.join(tempDir(), "not-a-dir");
    writeFileSync(blocked, "a file where the cache directory would go");
    const scratch = tempDir();
    expect(workerScript(scratch, path.join(blocked, "cache"))).toBe(path.join(scratch, "check-worker.mjs"));
    expect(statSync(path.join(scratch, "check-worker.mjs")).size).toBeGreaterThan(1000);
  });
});
