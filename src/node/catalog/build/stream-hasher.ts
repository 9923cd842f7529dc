/**
 * Hashes the document on a worker thread while the main thread merges and writes it: the SHA-256
 * of the `data` bytes (artifact_sha256) and of every part that lies wholly after the prefix (the
 * prefix is written last, so parts that hold any of it are hashed afterwards). The main thread
 * only merges and writes.
 */
import { Worker } from "node:worker_threads";
import { expectDefined } from "../../../common/expect";

// Plain CommonJS (an eval'd worker): node:crypto and messages only.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const { prefixLength, partBytes, counter, slots } = workerData;
const processed = new Int32Array(counter);
const parts = new Map();
const data = createHash("sha256");
parentPort.on("message", (message) => {
  if (message.end) {
    const partHashes = {};
    for (const [index, hash] of parts) partHashes[index] = hash.digest("hex");
    parentPort.postMessage({ data: data.digest("hex"), parts: partHashes });
    return;
  }
  const bytes = new Uint8Array(slots[message.slot], 0, message.length);
  if (message.inData) data.update(bytes);
  for (let done = 0; done < bytes.length; ) {
    const at = message.offset + done;
    const index = Math.floor(at / partBytes);
    const n = Math.min(bytes.length - done, (index + 1) * partBytes - at);
    if (index * partBytes >= prefixLength) {
      if (!parts.has(index)) parts.set(index, createHash("sha256"));
      parts.get(index).update(bytes.subarray(done, done + n));
    }
    done += n;
  }
  Atomics.add(processed, 0, 1);
  Atomics.notify(processed, 0);
});
`;

/** Chunks that may wait for the hasher: past this, the writer waits (bounded memory). */
const MAX_QUEUED = 8;

/** Part index → lowercase hex SHA-256, for the parts that start at or after the prefix. */
export type PartHashes = Record<number, string>;

export interface StreamHashes {
  /** Lowercase hex SHA-256 of every chunk fed with `inData`. */
  data: string;
  parts: PartHashes;
}

/**
 * The chunks travel through a ring of buffers shared with the worker, MAX_QUEUED + 1 of them: the
 * writer fills one (`nextChunk`) while the worker hashes the others, so no chunk is copied or
 * allocated per message. Copying each 1 MiB chunk into a new transferable buffer cost the main
 * thread ~0.2 s at 100k profiles, on the critical path of the merge.
 */
export class StreamHasher {
  private readonly worker: Worker;
  private failure: Error | undefined;
  private readonly processed = new Int32Array(new SharedArrayBuffer(4));
  private readonly slots: Buffer[];
  private sent = 0;

  constructor(prefixLength: number, partBytes: number, chunkBytes: number) {
    const shared = Array.from({ length: MAX_QUEUED + 1 }, () => new SharedArrayBuffer(chunkBytes));
    this.slots = shared.map((buffer) => Buffer.from(buffer));
    const workerData = { prefixLength, partBytes, counter: this.processed.buffer, slots: shared };
    this.worker = new Worker(WORKER, {
      eval: true,
      workerData,
      execArgv: [],
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
    });
    this.worker.on("error", (error) => (this.failure = error));
  }

  /** The buffer to fill with the next chunk, once the worker is done with its last one. */
  nextChunk(): Buffer {
    if (this.failure) throw this.failure;
    // Backpressure: the merge is synchronous, so wait on the worker's counter (Atomics.wait is
    // allowed on Node's main thread). A worker that died cannot say so while this thread waits:
    // give up after a long silence.
    for (
      let done = Atomics.load(this.processed, 0), silent = 0;
      this.sent - done > MAX_QUEUED;
      done = Atomics.load(this.processed, 0)
    ) {
      if (Atomics.wait(this.processed, 0, done, 1000) === "timed-out" && ++silent >= 60)
        throw new Error("the hashing worker stopped responding");
    }
    return expectDefined(this.slots[this.sent % this.slots.length], "a slot of the ring");
  }

  /** Hands the worker the chunk `nextChunk` gave: its first `length` bytes, at a document offset; `inData` when they belong to `data`. */
  send(offset: number, length: number, inData: boolean): void {
    if (this.failure) throw this.failure;
    this.worker.postMessage({ offset, slot: this.sent % this.slots.length, length, inData });
    this.sent++;
  }

  async finish(): Promise<StreamHashes> {
    try {
      return await new Promise<StreamHashes>((resolve, reject) => {
        if (this.failure) return reject(this.failure);
        this.worker.once("message", resolve);
        this.worker.once("error", reject);
        this.worker.postMessage({ end: true });
      });
    } finally {
      await this.worker.terminate();
    }
  }

  async cancel(): Promise<void> {
    await this.worker.terminate();
  }
}
