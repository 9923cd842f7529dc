/** Worker thread of the build's pass 1: checks batches of input units (see check-pool.ts). */
import { parentPort } from "node:worker_threads";
import { expectDefined } from "../../../common/expect";
import { checkBatch, type CheckRequest, type WireResult } from "./check-batch";

const port = expectDefined(parentPort, "a parent port: this module runs as check-pool.ts's worker thread");

port.on("message", (request: CheckRequest) => {
  const { profiles, bodies, inputBytes } = checkBatch(request.units);
  const result: WireResult = { profiles: JSON.stringify(profiles), bodies, inputBytes };
  port.postMessage({ id: request.id, result }, [bodies.buffer as ArrayBuffer]);
});
