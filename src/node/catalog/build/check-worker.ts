/** Worker thread of the build's pass 1: checks batches of input units (see check-pool.ts). */
import { parentPort } from "node:worker_threads";
import { checkBatch, type CheckRequest, type WireResult } from "./check-batch";

parentPort!.on("message", (request: CheckRequest) => {
  const { profiles, bodies, inputBytes } = checkBatch(request.units);
  const result: WireResult = { profiles: JSON.stringify(profiles), bodies, inputBytes };
  parentPort!.postMessage({ id: request.id, result }, [bodies.buffer as ArrayBuffer]);
});
