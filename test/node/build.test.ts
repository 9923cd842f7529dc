/**
 * `buildCatalog` on valid input: the layout and digests of docs/contract.md, checked independently;
 * determinism whatever the input order or format; parts that cut profiles and characters.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BuildFailed, buildCatalog } from "../../src/node/catalog/build/build";
import { generateProfiles } from "../../src/node/catalog/build/generator";
import { expectDefined } from "../../src/common/expect";
import { allSamples, PROFILES_DIR } from "./profile-fixtures";
import { checkRelease, expectCatalogOrder } from "./release-check";

const root = mkdtempSync(path.join(tmpdir(), "catalog-build-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const scratch = () => path.join(root, `case-${n++}`);

/** A deterministic shuffle (so a failure reproduces). */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const j = s % (i + 1);
    [out[i], out[j]] = [expectDefined(out[j], `item ${j}`), expectDefined(out[i], `item ${i}`)];
  }
  return out;
}

const samples = allSamples();

describe("a release built from data/profiles", async () => {
  const out = scratch();
  const result = await buildCatalog({ input: PROFILES_DIR, outDir: out });
  const release = checkRelease(result.releaseDir);

  it("is written to <out>/<hex> with a manifest the independent check accepts", () => {
    expect(result.releaseDir).toBe(path.join(out, result.manifest.release_id.slice(7)));
    expect(readdirSync(out)).toEqual([result.manifest.release_id.slice(7)]);
    expect(readdirSync(result.releaseDir).sort()).toEqual(["index", "manifest.json", "parts"]);
    expect(release.manifest).toEqual(result.manifest);
    expect(result.manifest).toMatchObject({
      api_contract: "agentready.catalog-api/v1",
      profile_count: samples.length,
      part_bytes: 4 * 1024 * 1024,
    });
  });

  it("holds every profile, unchanged, in catalog order", () => {
    expectCatalogOrder(release.data);
    const byId = new Map(samples.map(({ profile }) => [profile.agent_readiness_profile_id, profile]));
    for (const profile of release.data) expect(profile).toEqual(byId.get(profile.agent_readiness_profile_id));
  });

  it("leaves nothing else beside the output directory", () => {
    expect(readdirSync(path.dirname(out)).filter((f) => f.startsWith(".catalog-build-"))).toEqual([]);
  });

  it("rebuilding the same input is byte-identical and reported as unchanged", async () => {
    const again = await buildCatalog({ input: PROFILES_DIR, outDir: out });
    expect(again).toEqual({ ...result, unchanged: true });
    const other = await buildCatalog({ input: PROFILES_DIR, outDir: scratch() });
    expect(checkRelease(other.releaseDir).document.equals(release.document)).toBe(true);
  });

  it("input order, file names and format do not matter", async () => {
    const dir = scratch();
    mkdirSync(dir);
    for (const [i, { profile }] of shuffled(samples, 3).entries())
      writeFileSync(path.join(dir, `${String(i).padStart(2, "0")}.json`), JSON.stringify(profile));
    const ndjson = `${scratch()}.ndjson`;
    writeFileSync(
      ndjson,
      shuffled(samples, 11)
        .map(({ profile }) => `${JSON.stringify(profile)}\n`)
        .join(""),
    );
    const array = `${scratch()}.json`;
    writeFileSync(
      array,
      JSON.stringify(
        shuffled(samples, 5).map((s) => s.profile),
        null,
        2,
      ),
    );
    const envelope = `${scratch()}.json`;
    writeFileSync(
      envelope,
      JSON.stringify({ api_contract: "x.catalog-api/v1", data: shuffled(samples, 9).map((s) => s.profile) }),
    );
    for (const input of [dir, ndjson, array, envelope]) {
      const built = await buildCatalog({ input, outDir: scratch() });
      expect(built.manifest).toEqual(result.manifest);
    }
  });

  it("the namespace changes api_contract and release_id, not artifact_sha256", async () => {
    const other = await buildCatalog({ input: PROFILES_DIR, outDir: scratch(), namespace: "example" });
    expect(other.manifest.api_contract).toBe("example.catalog-api/v1");
    expect(other.manifest.artifact_sha256).toBe(result.manifest.artifact_sha256);
    expect(other.manifest.release_id).not.toBe(result.manifest.release_id);
    checkRelease(other.releaseDir);
  });
});

describe("parts", () => {
  it("a part may end inside a profile and inside a multi-byte UTF-8 character", async () => {
    const whole = checkRelease((await buildCatalog({ input: PROFILES_DIR, outDir: scratch() })).releaseDir).document;
    const at = whole.indexOf(Buffer.from("Zürich")) + 1; // "ü" is 0xC3 0xBC: cut between them
    expect(whole[at]).toBe(0xc3);
    const built = await buildCatalog({ input: PROFILES_DIR, outDir: scratch(), partBytes: at + 1 });
    const { parts, document } = checkRelease(built.releaseDir);
    expect(document.equals(whole)).toBe(true);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts[0]?.at(-1)).toBe(0xc3);
    expect(parts[1]?.[0]).toBe(0xbc);
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(parts[0])).toThrow();
    const cutInsideProfile = parts.slice(0, -1).some((part) => !part.toString("latin1").endsWith("},"));
    expect(cutInsideProfile).toBe(true);
  });

  it("tiny parts (smaller than the document prefix) still reassemble", async () => {
    const built = await buildCatalog({ input: PROFILES_DIR, outDir: scratch(), partBytes: 97 });
    const { manifest } = checkRelease(built.releaseDir);
    expect(manifest.parts.length).toBe(Math.ceil(manifest.bytes / 97));
  });
});

describe("the release index", () => {
  it("small pages: many leaves and segments, every profile in both indexes (the independent check), deterministic", async () => {
    const ndjson = `${scratch()}.ndjson`;
    writeFileSync(ndjson, [...generateProfiles(600, 7)].map((p) => `${JSON.stringify(p)}\n`).join(""));
    const built = await buildCatalog({ input: ndjson, outDir: scratch(), indexPageBytes: 1000, partBytes: 1 << 16 });
    const { manifest } = checkRelease(built.releaseDir);
    for (const index of manifest.index)
      expect(index).toMatchObject({
        page_bytes: 1000,
        segments: expect.arrayContaining([expect.objectContaining({ index: 2 })]),
      });
    const again = await buildCatalog({
      input: ndjson,
      outDir: scratch(),
      indexPageBytes: 1000,
      partBytes: 1 << 16,
      threads: 2,
      runBytes: 100_000,
    });
    expect(again.manifest).toEqual(built.manifest);
  });

  it("a line longer than a page is a page of its own", async () => {
    const built = await buildCatalog({ input: PROFILES_DIR, outDir: scratch(), indexPageBytes: 50 });
    const { manifest } = checkRelease(built.releaseDir);
    expect(manifest.index.every((index) => index.segments.length === manifest.profile_count)).toBe(true);
  });

  it.each([0, 1.5, 2 ** 20 + 1])("refuses indexPageBytes %s", async (indexPageBytes) => {
    await expect(buildCatalog({ input: PROFILES_DIR, outDir: scratch(), indexPageBytes })).rejects.toThrow(
      /indexPageBytes must be from 1 to 1048576/,
    );
  });
});

describe("scale paths give the same bytes", () => {
  it("worker threads and a many-run external sort equal the inline, in-memory build", async () => {
    const ndjson = `${scratch()}.ndjson`;
    writeFileSync(ndjson, [...generateProfiles(1500, 4)].map((p) => `${JSON.stringify(p)}\n`).join(""));
    const inline = await buildCatalog({ input: ndjson, outDir: scratch(), threads: 0, partBytes: 1 << 16 });
    const threaded = await buildCatalog({
      input: ndjson,
      outDir: scratch(),
      threads: 2,
      runBytes: 200_000,
      partBytes: 1 << 16,
    });
    expect(threaded.manifest).toEqual(inline.manifest);
    const { data } = checkRelease(threaded.releaseDir);
    expect(data).toHaveLength(1500);
    expectCatalogOrder(data);
    expect(readFileSync(path.join(threaded.releaseDir, "manifest.json"))).toEqual(
      readFileSync(path.join(inline.releaseDir, "manifest.json")),
    );
    // The same profiles as one pretty-printed .json array (~9 MB: streamed across many read chunks).
    const array = `${scratch()}.json`;
    writeFileSync(array, JSON.stringify(shuffled([...generateProfiles(1500, 4)], 2), null, 2));
    const streamed = await buildCatalog({ input: array, outDir: scratch(), threads: 2, partBytes: 1 << 16 });
    expect(streamed.manifest).toEqual(inline.manifest);
  });

  it("worker threads report an invalid catalog exactly as the inline build does", async () => {
    const lines = [...generateProfiles(600, 5)].map((p) => JSON.stringify(p));
    const line = (index: number) => expectDefined(lines[index], `generated line ${index + 1}`);
    lines[10] = line(10).replace('"grade":"', '"grade":"Z'); // schema
    lines[200] = line(3); // a duplicate id and scope
    lines[300] = "{not json";
    lines[450] = line(450).replace(/"name":"[^"]*"/, '"name":"bad \\udc00 name"'); // a lone surrogate
    const ndjson = `${scratch()}.ndjson`;
    writeFileSync(ndjson, `${lines.join("\n")}\n`);
    const report = async (threads: number) => {
      const failed = await buildCatalog({ input: ndjson, outDir: scratch(), threads, runBytes: 100_000 }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failed).toBeInstanceOf(BuildFailed);
      return (failed as BuildFailed).problems;
    };
    const inline = await report(0);
    expect(new Set(inline.map((p) => p.rule))).toEqual(
      new Set(["schema", "unique-profile-id", "unique-scope", "json-syntax", "canonical-json"]),
    );
    expect(await report(2)).toEqual(inline);
    // ~3 MB of lines: read in 1 MiB chunks, so these lines are counted across chunk boundaries.
    const lineOf = (rule: string) => inline.filter((p) => p.rule === rule).map((p) => p.line);
    expect(lineOf("schema")).toEqual([11]);
    expect(lineOf("json-syntax")).toEqual([301]);
    expect(lineOf("canonical-json")).toEqual([451]);
    expect(lineOf("unique-profile-id").sort((a, b) => Number(a) - Number(b))).toEqual([4, 201]);
  });
});
