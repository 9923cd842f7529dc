/**
 * download() (the package's node entry): a verified document written atomically; parts already on
 * disk with the manifest's sha256 are copied instead of fetched (the previous download, the
 * partial file of an interrupted one); a server whose bytes do not verify leaves the target as it
 * was and no partial file. Against the stand-in server (pull-fixture-server.ts), which logs requests.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CatalogApiError,
  CatalogVerificationError,
  createCatalogClient,
  type DownloadOptions,
  type Progress,
} from "../../packages/client/src/node.js";
import { buildCatalog, type BuildResult } from "../../src/node/catalog/build/build";
import { fixtureServer, type Fault } from "./pull-fixture-server";
import { expectDefined } from "../../src/common/expect";

let dir: string;
let built: BuildResult;
let document: Buffer;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "catalog-download-"));
  built = await buildCatalog({ input: path.resolve("data/profiles"), outDir: path.join(dir, "dist"), partBytes: 7919 });
  document = Buffer.concat(
    built.manifest.parts.map((part) => readFileSync(path.join(built.releaseDir, "parts", String(part.index)))),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function download(fault: Fault, out: string, options: DownloadOptions = {}) {
  const server = await fixtureServer(built.releaseDir, fault);
  try {
    const client = createCatalogClient({ baseUrl: server.url, apiKey: "sk_test_fixture" });
    const outcome = await client.download(out, options).then(
      (result) => ({ result, error: undefined }),
      (error: unknown) => ({ result: undefined, error }),
    );
    return {
      ...outcome,
      partsFetched: server.requests
        .filter((url) => url.includes("/parts/"))
        .map((url) => Number(url.split("/").at(-1))),
    };
  } finally {
    await server.close();
  }
}

const partials = (out: string) =>
  readdirSync(path.dirname(out)).filter((name) => name.startsWith(`${path.basename(out)}.partial-`));
const count = () => built.manifest.parts.length;

describe("download()", () => {
  it("writes exactly the document, reports progress, and leaves no partial file", async () => {
    const out = path.join(dir, "fresh", "catalog.json");
    mkdirSync(path.dirname(out));
    const progress: Progress[] = [];
    const { result, error, partsFetched } = await download("none", out, {
      onProgress: (event) => progress.push(event),
    });
    expect(error).toBeUndefined();
    expect(readFileSync(out).equals(document)).toBe(true);
    expect(result).toMatchObject({
      path: out,
      partsFetched: count(),
      partsReused: 0,
      manifest: { release_id: built.manifest.release_id },
    });
    expect(partsFetched).toEqual([...Array(count()).keys()]);
    expect(progress.at(-1)).toEqual({
      phase: "verified",
      bytesDone: document.length,
      bytesTotal: document.length,
      partsDone: count(),
      partsTotal: count(),
      partsReused: 0,
    });
    expect(partials(out)).toEqual([]);
  });

  it("downloads nothing again when the target already holds the release", async () => {
    const out = path.join(dir, "again.json");
    await download("none", out);
    const { result, partsFetched } = await download("none", out);
    expect(partsFetched).toEqual([]);
    expect(result).toMatchObject({ partsFetched: 0, partsReused: count() });
    expect(readFileSync(out).equals(document)).toBe(true);
  });

  it("resumes an interrupted download: the next one fetches only the parts the partial file lacks", async () => {
    const out = path.join(dir, "resumed.json");
    const first = await download("lost-part-3", out);
    expect(first.error).toBeInstanceOf(CatalogApiError);
    expect(existsSync(out)).toBe(false);
    expect(partials(out)).toHaveLength(1);
    const second = await download("none", out);
    expect(second.error).toBeUndefined();
    expect(second.partsFetched).toEqual([...Array(count()).keys()].slice(3));
    expect(readFileSync(out).equals(document)).toBe(true);
    // The interrupted run's process (this one) is still running: its partial file is not removed.
    expect(partials(out)).toHaveLength(1);
  });

  it("after a success, removes the partial files of processes that are gone, and only those", async () => {
    const out = path.join(dir, "abandoned.json");
    const gone = `${out}.partial-999999999-0badc0de`;
    const running = `${out}.partial-${process.ppid}-0badc0de`;
    writeFileSync(gone, document.subarray(0, 100));
    writeFileSync(running, document.subarray(0, 100));
    await download("none", out);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(running)).toBe(true);
  });

  it("reuses parts of another file only where they match: a damaged copy costs only its damaged parts", async () => {
    const out = path.join(dir, "damaged.json");
    const damaged = Buffer.from(document);
    const at = expectDefined(built.manifest.parts[1], "part 1").offset + 5;
    damaged[at] = expectDefined(damaged[at], `byte ${at}`) ^ 1;
    writeFileSync(out, damaged);
    const { result, partsFetched } = await download("none", out);
    expect(partsFetched).toEqual([1]);
    expect(result?.partsReused).toBe(count() - 1);
    expect(readFileSync(out).equals(document)).toBe(true);
  });

  it("bytes that do not verify: the target is left as it was, and no partial file", async () => {
    const out = path.join(dir, "kept.json");
    writeFileSync(out, "previous");
    const { error } = await download("flipped-byte", out);
    expect(error).toBeInstanceOf(CatalogVerificationError);
    expect(readFileSync(out, "utf8")).toBe("previous");
    expect(partials(out)).toEqual([]);
  });

  it("an abort stops it with an AbortError and keeps the partial file to resume from", async () => {
    const out = path.join(dir, "aborted.json");
    const controller = new AbortController();
    const { error } = await download("none", out, {
      signal: controller.signal,
      onProgress: (event) => event.partsDone === 2 && controller.abort(),
    });
    expect((error as DOMException).name).toBe("AbortError");
    expect(existsSync(out)).toBe(false);
    expect(partials(out)).toHaveLength(1);
  });
});
