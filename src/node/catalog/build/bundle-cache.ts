/**
 * Bundles kept in a cache directory with what they were made from — their entry point and the size
 * and mtime of every file that went into them — and used again while none of those changed: the
 * build's check-worker bundle (src/node/catalog/build/check-pool.ts) is kept this way.
 *
 * Files: `<cacheDir>/<name>.mjs` (the bundle) and `<cacheDir>/<name>.inputs.json`, both written
 * aside and renamed, so that a process starting at the same moment never reads half a file.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { threadId } from "node:worker_threads";

interface Inputs {
  entry: string;
  files: Record<string, { size: number; mtimeMs: number }>;
}

/** The cached bundle `name` of `entry`, or undefined when there is none or one of its inputs changed. */
export function freshBundle(cacheDir: string, name: string, entry: string): string | undefined {
  const bundle = path.join(cacheDir, `${name}.mjs`);
  if (!existsSync(bundle)) return undefined;
  try {
    const inputs = JSON.parse(readFileSync(path.join(cacheDir, `${name}.inputs.json`), "utf8")) as Inputs;
    // Two checkouts may share one node_modules: each must get its own code.
    if (inputs.entry !== entry) return undefined;
    const unchanged = Object.entries(inputs.files).every(([file, was]) => {
      const now = statSync(file, { throwIfNoEntry: false });
      return now !== undefined && now.size === was.size && now.mtimeMs === was.mtimeMs;
    });
    return unchanged ? bundle : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps `code`, bundled from `entry` out of `inputs` (esbuild's metafile input paths, relative to
 * the working directory) by a bundling that started at `startedMs`, and returns its path. Throws
 * when the cache cannot be written, or when an input changed while it was being bundled (the
 * bundle may hold the old text): the caller then uses the code without keeping it.
 */
export function keepBundle(
  cacheDir: string,
  name: string,
  entry: string,
  code: string | Uint8Array,
  inputs: string[],
  startedMs: number,
): string {
  const record: Inputs = { entry, files: {} };
  for (const file of inputs) {
    const { size, mtimeMs } = statSync(path.resolve(file));
    if (mtimeMs >= startedMs) throw new Error(`${file} changed during bundling`);
    record.files[path.resolve(file)] = { size, mtimeMs };
  }
  mkdirSync(cacheDir, { recursive: true });
  const bundle = path.join(cacheDir, `${name}.mjs`);
  writeAtomically(bundle, code);
  writeAtomically(path.join(cacheDir, `${name}.inputs.json`), JSON.stringify(record));
  return bundle;
}

function writeAtomically(file: string, contents: string | Uint8Array): void {
  const aside = `${file}.${process.pid}.${threadId}.tmp`;
  writeFileSync(aside, contents);
  renameSync(aside, file);
}
