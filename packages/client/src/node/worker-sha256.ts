/**
 * A SHA-256 computed on a worker thread, so sync's two digests of the rebuilt document (the whole
 * document's and artifact_sha256) run on two cores: hashing is most of its time (bench "sync").
 * Bytes are sent in batches of about 8 MiB; views of a SharedArrayBuffer go without a copy (they
 * must not change afterwards), others are copied. The worker's code is inline, so the package
 * ships no second entry file; it never keeps the process alive.
 */
import { Worker } from "node:worker_threads";
import { asDigest } from "../protocol/digests.js";
import type { Sha256 } from "../sha256-stream.js";

const BATCH_BYTES = 8 * 1024 * 1024;

const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const hash = require("node:crypto").createHash("sha256");
parentPort.on("message", (message) => {
  if (message === "digest") parentPort.postMessage(hash.digest("hex"));
  else for (const bytes of message) hash.update(bytes);
});
`;

export interface WorkerSha256 extends Sha256 {
  /** Stops the thread; the digest is not available after. Safe to call twice. */
  close(): Promise<void>;
}

export function createWorkerSha256(): WorkerSha256 {
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  worker.unref();
  let failure: Error | undefined;
  const failed = new Promise<never>((_, reject) => {
    const fail = (error: Error) => {
      failure ??= error;
      reject(failure);
    };
    worker.once("error", fail);
    worker.once("exit", (code) => fail(new Error(`the hashing thread exited (${code})`)));
  });
  failed.catch(() => {});
  let batch: Uint8Array[] = [];
  let batched = 0;
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
      if (batched >= BATCH_BYTES) send();
    },
    async digest() {
      send();
      const answer = new Promise<string>((resolve) => worker.once("message", resolve));
      worker.postMessage("digest");
      const hex = await Promise.race([answer, failed]);
      await worker.terminate();
      return asDigest(hex);
    },
    async close() {
      await worker.terminate();
    },
  };
}
