/** Worker thread of the build's pass 1: checks batches of input units (see check-pool.ts). */
import { parentPort } from "node:worker_threads";
import { checkBatch, type CheckRequest } from "./check-batch";

parentPort!.on("message", (request: CheckRequest) => {
  const result = checkBatch(request.units);
  parentPort!.postMessage({ id: request.id, result }, [result.bodies.buffer as ArrayBuffer]);
});
