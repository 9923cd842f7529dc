/**
 * Hashes the document on a worker thread while the main thread merges and writes it: the SHA-256
 * of the `data` bytes (artifact_sha256) and of every part that lies wholly after the prefix (the
 * prefix is written last, so parts that hold any of it are hashed afterwards). The main thread
 * only merges and writes.
 */
import { Worker } from "node:worker_threads";

// Plain CommonJS (an eval'd worker): node:crypto and messages only.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const { prefixLength, partBytes, counter } = workerData;
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
  const bytes = new Uint8Array(message.buffer);
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

/** Chunks (1 MiB each) that may wait for the hasher: past this, the writer waits (bounded memory). */
const MAX_QUEUED = 8;

/** Part index → lowercase hex SHA-256, for the parts that start at or after the prefix. */
export type PartHashes = Record<number, string>;

export interface StreamHashes {
  /** Lowercase hex SHA-256 of every chunk fed with `inData`. */
  data: string;
  parts: PartHashes;
}

export class StreamHasher {
  private readonly worker: Worker;
  private failure: Error | undefined;
  private readonly processed = new Int32Array(new SharedArrayBuffer(4));
  private sent = 0;

  constructor(prefixLength: number, partBytes: number) {
    this.worker = new Worker(WORKER, { eval: true, workerData: { prefixLength, partBytes, counter: this.processed.buffer }, resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 } });
    this.worker.on("error", (error) => (this.failure = error));
  }

  /** Bytes at a document offset, `inData` when they belong to `data` (copied, so the caller may reuse its buffer). */
  feed(offset: number, bytes: Uint8Array, inData: boolean): void {
    if (this.failure) throw this.failure;
    const buffer = new Uint8Array(bytes).buffer; // a copy (Buffer#slice would be a view)
    this.worker.postMessage({ offset, buffer, inData }, [buffer]);
    this.sent++;
    // Backpressure: the merge is synchronous, so wait on the worker's counter (Atomics.wait is
    // allowed on Node's main thread) rather than let copies pile up in its message queue.
    // A worker that died cannot say so while this thread waits: give up after a long silence.
    for (let done = Atomics.load(this.processed, 0), silent = 0; this.sent - done > MAX_QUEUED; done = Atomics.load(this.processed, 0)) {
      if (Atomics.wait(this.processed, 0, done, 1000) === "timed-out" && ++silent >= 60) throw new Error("the hashing worker stopped responding");
    }
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
