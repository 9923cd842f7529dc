/**
 * Every benchmark module, in report order (BENCH_MODULES), and the order they run in (RUN_ORDER).
 * Add serve/client modules here (one import, one entry in each).
 */
import { buildBench } from "./build";
import { clientBench } from "./client";
import { d1LoadBench } from "./d1-load";
import { historyBench } from "./history";
import { queryBench } from "./query";
import { serveBench } from "./serve";
import { syncBench } from "./sync";
import { watchesBench } from "./watches";
import type { BenchModule } from "./types";

export const BENCH_MODULES: BenchModule[] = [
  buildBench,
  serveBench,
  queryBench,
  historyBench,
  watchesBench,
  d1LoadBench,
  clientBench,
  syncBench,
];

/**
 * The order the modules run in, for the `wrangler dev` servers they share (bench-rig.ts): sync
 * first, as it publishes while no server runs over the state (it stops the real worker otherwise);
 * serve last, as its limiter switch stops the real worker (they share the state's Durable Objects).
 * The real worker then starts once and the whole run starts three servers, not five.
 */
export const RUN_ORDER: BenchModule[] = [
  buildBench,
  syncBench,
  queryBench,
  historyBench,
  watchesBench,
  d1LoadBench,
  clientBench,
  serveBench,
];
