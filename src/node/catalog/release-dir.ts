/**
 * A built release on disk, as `npm run catalog:build` writes it: `<dir>/manifest.json`,
 * `<dir>/parts/<n>` and `<dir>/index/<name>/<n>`. Objects are read one at a time, so memory holds
 * at most one of them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ReleaseSource } from "./publish";
import { UsageError } from "../cli/cli-run";

/**
 * Opens `dir` as a release. For convenience `dir` may also be a build's --out directory holding
 * exactly one release; with several, the message lists them.
 */
export function openReleaseDir(dir: string): ReleaseSource & { dir: string } {
  const releaseDir = resolveReleaseDir(path.resolve(dir));
  const manifestFile = path.join(releaseDir, "manifest.json");
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
  } catch (error) {
    throw new Error(`cannot read ${manifestFile}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    dir: releaseDir,
    manifest,
    readPart: (index) => readObject(path.join(releaseDir, "parts", String(index)), `part ${index}`),
    readIndexSegment: (name, index) =>
      readObject(path.join(releaseDir, "index", name, String(index)), `${name} index segment ${index}`),
  };
}

async function readObject(file: string, what: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(file));
  } catch (error) {
    throw new Error(`cannot read ${what} (${file}): ${error instanceof Error ? error.message : String(error)}`);
  }
}

function resolveReleaseDir(dir: string): string {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a directory`);
  if (existsSync(path.join(dir, "manifest.json"))) return dir;
  const releases = readdirSync(dir).filter((name) => existsSync(path.join(dir, name, "manifest.json")));
  const [first, ...others] = releases;
  if (first === undefined)
    throw new UsageError(
      `${dir} holds no manifest.json: pass a release directory written by npm run catalog:build (<out>/<hex>)`,
    );
  if (others.length === 0) return path.join(dir, first);
  throw new UsageError(
    `${dir} holds ${releases.length} releases (${releases.join(", ")}): pass one of them, e.g. --release ${path.join(dir, first)}`,
  );
}
