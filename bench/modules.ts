/** Every benchmark module, in report order. Add serve/client modules here (one import, one entry). */
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
