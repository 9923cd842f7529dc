/**
 * The file I/O of sync's rebuild (packages/client/src/node/sequential-io.ts) on real files, with
 * chunks of a few bytes so every range crosses chunks: the reader gives back exactly the bytes asked
 * for, across chunks and over gaps longer than one; the writer writes what it was given in order and
 * verifies the document's digests; a short file or a wrong byte is a CatalogVerificationError; the
 * worker thread's hash equals node:crypto's.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, expect, it } from "vitest";
import { DocumentCheck } from "../../packages/client/src/document-check";
import { CatalogVerificationError } from "../../packages/client/src/errors";
import { CheckedWriter, SequentialReader } from "../../packages/client/src/node/sequential-io";
import { createWorkerSha256 } from "../../packages/client/src/node/worker-sha256";
import { documentPrefix } from "../../packages/client/src/protocol/digests";
import type { Manifest } from "../../packages/client/src/types";
import { expectDefined } from "../../src/common/expect";

const dir = mkdtempSync(path.join(tmpdir(), "sync-io-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const digest = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const RELEASE = `sha256:${"a".repeat(64)}`;

/** A document `<prefix>[…]}` of `data` and the manifest that describes it. */
function documentOf(data: string): { bytes: Buffer; manifest: Manifest } {
  const body = Buffer.from(`[${data}]`);
  const artifact = digest(body);
  const bytes = Buffer.concat([Buffer.from(documentPrefix("v1", RELEASE, artifact)), body, Buffer.from("}")]);
  const manifest: Manifest = {
    release_id: RELEASE,
    artifact_sha256: artifact,
    api_contract: "v1",
    bytes: bytes.length,
    sha256: digest(bytes),
    part_bytes: bytes.length,
    profile_count: 1,
    published_at: null,
    parts: [],
  };
  return { bytes, manifest };
}

it("reads back exactly the ranges asked for, across chunks and over gaps longer than a chunk", async () => {
  const bytes = Buffer.from(Array.from({ length: 200 }, (_, i) => i));
  const file = path.join(dir, "read");
  writeFileSync(file, bytes);
  const ranges = fc.array(fc.tuple(fc.nat(40), fc.nat(40)), { maxLength: 12 }).map((pairs) => {
    let at = 10;
    return pairs.map(([gap, length]) => {
      const start = Math.min(at + gap, 190);
      at = Math.min(start + length, 190);
      return [start, at] as const;
    });
  });
  await fc.assert(
    fc.asyncProperty(ranges, fc.integer({ min: 1, max: 17 }), async (wanted, chunk) => {
      const handle = await open(file, "r");
      try {
        const reader = new SequentialReader(handle, 10, 190, chunk);
        for (const [start, end] of wanted) {
          const got: Uint8Array[] = [];
          for await (const slice of reader.slices(start, end)) got.push(slice);
          expect(Buffer.concat(got).equals(bytes.subarray(start, end))).toBe(true);
        }
      } finally {
        await handle.close();
      }
    }),
    { numRuns: 200 },
  );
});

it("refuses a local copy shorter than the change list says", async () => {
  const file = path.join(dir, "short");
  writeFileSync(file, Buffer.alloc(50));
  const handle = await open(file, "r");
  try {
    const reader = new SequentialReader(handle, 0, 80, 16);
    const read = async () => {
      for await (const _ of reader.slices(40, 70));
    };
    await expect(read()).rejects.toBeInstanceOf(CatalogVerificationError);
  } finally {
    await handle.close();
  }
});

it("writes the slices in order in writes of a chunk or more and verifies the document", async () => {
  const { bytes, manifest } = documentOf(Array.from({ length: 40 }, (_, i) => `{"n":${i}}`).join(","));
  await fc.assert(
    fc.asyncProperty(fc.array(fc.nat(30), { maxLength: 20 }), fc.integer({ min: 1, max: 64 }), async (cuts, chunk) => {
      const file = path.join(dir, "write");
      const handle = await open(file, "w");
      const writer = new CheckedWriter(handle, new DocumentCheck(manifest), chunk);
      let at = 0;
      for (const length of cuts) {
        const end = Math.min(at + length, bytes.length);
        await writer.write(bytes.subarray(at, end));
        at = end;
      }
      await writer.write(bytes.subarray(at));
      await writer.finish();
      await handle.close();
      expect(readFileSync(file).equals(bytes)).toBe(true);
    }),
    { numRuns: 100 },
  );
});

it("fails at finish when a byte differs from the document the manifest describes", async () => {
  const { bytes, manifest } = documentOf('{"n":1},{"n":2}');
  const wrong = Buffer.from(bytes);
  wrong[wrong.length - 4] = expectDefined(wrong.at(-4), "the fourth byte from the end") ^ 1;
  const handle = await open(path.join(dir, "wrong"), "w");
  try {
    const writer = new CheckedWriter(handle, new DocumentCheck(manifest), 8);
    await writer.write(wrong);
    await expect(writer.finish()).rejects.toBeInstanceOf(CatalogVerificationError);
  } finally {
    await handle.close();
  }
});

it("hashes on a worker thread what node:crypto hashes, from shared and unshared bytes alike", async () => {
  const shared = new Uint8Array(new SharedArrayBuffer(3 * 1024 * 1024)).fill(7);
  const plain = Buffer.from("plain bytes, copied on their way to the thread");
  const hash = createWorkerSha256();
  try {
    // Enough to send several batches, and views that do not start at their buffer's start.
    for (let i = 0; i < 4; i++) {
      hash.update(shared.subarray(i));
      hash.update(plain.subarray(1));
    }
    const expected = createHash("sha256");
    for (let i = 0; i < 4; i++) expected.update(shared.subarray(i)).update(plain.subarray(1));
    expect(await hash.digest()).toBe(`sha256:${expected.digest("hex")}`);
  } finally {
    await hash.close();
  }
});

it("uses its few chunk buffers again only once the writer has written and hashed their bytes", async () => {
  // Chunks of a few bytes, so the reader's four buffers are each used again many times over; a
  // buffer read into before the hashing thread or the file had its bytes shows in the digests.
  const { bytes, manifest } = documentOf(Array.from({ length: 60 }, (_, i) => `{"n":${i * 7}}`).join(","));
  const source = path.join(dir, "pooled-source");
  writeFileSync(source, bytes);
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 23 }), fc.array(fc.nat(9), { maxLength: 30 }), async (chunk, cuts) => {
      const [input, output] = [await open(source, "r"), await open(path.join(dir, "pooled"), "w")];
      const whole = createWorkerSha256();
      try {
        const writer = new CheckedWriter(output, new DocumentCheck(manifest, whole), chunk, (n) => whole.hashed(n));
        const reader = new SequentialReader(input, 0, bytes.length, chunk, writer);
        let at = 0;
        for (const length of [...cuts, bytes.length]) {
          const end = Math.min(at + length, bytes.length);
          for await (const slice of reader.slices(at, end)) await writer.write(slice);
          at = end;
        }
        await writer.finish();
      } finally {
        await whole.close();
        await Promise.all([input.close(), output.close()]);
      }
      expect(readFileSync(path.join(dir, "pooled")).equals(bytes)).toBe(true);
    }),
    { numRuns: 25 },
  );
});
