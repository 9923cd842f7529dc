/**
 * A SHA-256 computed on a worker thread, so sync's two digests of the rebuilt document (the whole
 * document's and artifact_sha256) run on two cores: hashing is most of its time (bench "sync").
 * Bytes are sent in batches of about 8 MiB; views of a SharedArrayBuffer go without a copy (they
 * must not change until `hashed` says they were hashed), others are copied. The worker's code is
 * inline, so the package ships no second entry file; it never keeps the process alive.
 */
import { Worker } from "node:worker_threads";
import { asDigest } from "../protocol/digests.js";
import type { Sha256 } from "../sha256-stream.js";

const BATCH_BYTES = 8 * 1024 * 1024;

// After each batch the worker answers with the number of bytes hashed so far; to "digest", the hex.
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const hash = require("node:crypto").createHash("sha256");
let hashed = 0;
parentPort.on("message", (message) => {
  if (message === "digest") return parentPort.postMessage(hash.digest("hex"));
  for (const bytes of message) {
    hash.update(bytes);
    hashed += bytes.length;
  }
  parentPort.postMessage(hashed);
});
`;

export interface WorkerSha256 extends Sha256 {
  /** Resolves once the first `bytes` bytes given to `update` are hashed: their buffers may change. */
  hashed(bytes: number): Promise<void>;
  /** Stops the thread; the digest is not available after. Safe to call twice. */
  close(): Promise<void>;
}

export function createWorkerSha256(): WorkerSha256 {
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  worker.unref();
  let failure: Error | undefined;
  let hashedBytes = 0;
  let waiters: { bytes: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  let answer: ((hex: string) => void) | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    for (const waiter of waiters) waiter.reject(failure);
    waiters = [];
  };
  const failed = new Promise<never>((_, reject) => {
    const stop = (error: Error) => {
      fail(error);
      reject(failure);
    };
    worker.once("error", stop);
    worker.once("exit", (code) => stop(new Error(`the hashing thread exited (${code})`)));
  });
  failed.catch(() => {});
  worker.on("message", (message: number | string) => {
    if (typeof message === "string") return answer?.(message);
    hashedBytes = message;
    const done = waiters.filter((waiter) => waiter.bytes <= hashedBytes);
    waiters = waiters.filter((waiter) => waiter.bytes > hashedBytes);
    for (const waiter of done) waiter.resolve();
  });
  let batch: Uint8Array[] = [];
  let batched = 0;
  let given = 0;
  const send = () => {
    if (!batch.length) return;
    worker.postMessage(batch);
    batch = [];
    batched = 0;
  };
  return {
    update(bytes) {
      if (failure) throw failure;
      batch.push(bytes.buffer instanceof SharedArrayBuffer ? bytes : bytes.slice());
      batched += bytes.length;
      given += bytes.length;
      if (batched >= BATCH_BYTES) send();
    },
    hashed(bytes) {
      if (failure) return Promise.reject(failure);
      if (bytes <= hashedBytes) return Promise.resolve();
      if (bytes > given) return Promise.reject(new Error(`${bytes} bytes asked, ${given} given`));
      send();
      return new Promise((resolve, reject) => waiters.push({ bytes, resolve, reject }));
    },
    async digest() {
      send();
      const hex = new Promise<string>((resolve) => {
        answer = resolve;
      });
      worker.postMessage("digest");
      const result = await Promise.race([hex, failed]);
      await worker.terminate();
      return asDigest(result);
    },
    async close() {
      await worker.terminate();
    },
  };
}
