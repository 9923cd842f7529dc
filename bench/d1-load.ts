/**
 * The D1 load of publish (issue 26; target ≤ 60 s at 100k profiles): `loadQueryTables` of a built
 * release into an emptied local D1, through wrangler's platform proxy as `catalog:publish` reaches
 * it, timed with its breakdown: the time inside `batch` calls (one is in flight while Node builds
 * the next), inside `prepare`/`bind` (round trips through the proxy, carrying the rows' JSON), and
 * the CPU it cost this process and workerd. Its floors in the same run: the same
 * load into SQLite in process (`node:sqlite`, the same schema: SQLite's own work plus Node's) and
 * into a database that does nothing (Node's own work alone).
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { DEFAULT_PART_BYTES } from "../src/common/catalog/parts";
import { openReleaseDir } from "../src/node/catalog/release-dir";
import { loadQueryTables, type QueryDb, type QueryStatement } from "../src/node/catalog/query-load";
import { openDeploymentStorage } from "../src/node/local/deployment-storage";
import { childrenCpuSeconds, ownCpuSeconds } from "./cpu-time";
import { builtRelease } from "./served-releases";
import { openSqliteDb } from "./sqlite-db";
import { count } from "./serve-rows";
import type { BenchContext, BenchModule, BenchRow, BenchSection } from "./types";

const SIZES = { full: [10_000, 100_000], quick: [1_000], smoke: [200] };
const TARGET_SECONDS = 60;
const TARGET_PROFILES = 100_000;

interface CallTimes {
  batchSeconds: number;
  bindSeconds: number;
  batches: number;
}
interface LoadTimes extends CallTimes {
  seconds: number;
  /** CPU seconds of this process, and of the processes it started (workerd), during the load. */
  nodeCpuSeconds: number;
  workerdCpuSeconds: number;
}

/** `db` with a stopwatch around its calls (prepare and bind are synchronous round trips through the proxy). */
function timedDb(db: QueryDb, times: CallTimes): QueryDb {
  const inner = new WeakMap<QueryStatement, QueryStatement>();
  const stopwatch = <T>(work: () => T): T => {
    const started = performance.now();
    const value = work();
    times.bindSeconds += (performance.now() - started) / 1000;
    return value;
  };
  const wrap = (statement: QueryStatement): QueryStatement => {
    const wrapped: QueryStatement = {
      bind: (...values) => wrap(stopwatch(() => statement.bind(...values))),
      first: () => statement.first(),
    };
    inner.set(wrapped, statement);
    return wrapped;
  };
  return {
    prepare: (sql) => wrap(stopwatch(() => db.prepare(sql))),
    batch: async (statements) => {
      const started = performance.now();
      const result = await db.batch(statements.map((statement) => inner.get(statement) ?? statement));
      times.batchSeconds += (performance.now() - started) / 1000;
      times.batches++;
      return result;
    },
  };
}

/** A database that answers "nothing loaded yet" and stores nothing: the load's Node-side work alone. */
const NOTHING_DB: QueryDb = {
  prepare: () => {
    const statement: QueryStatement = { bind: () => statement, first: async () => null };
    return statement;
  },
  batch: async () => [],
};

async function loadInto(db: QueryDb, releaseDir: string): Promise<LoadTimes> {
  const times: CallTimes = { batchSeconds: 0, bindSeconds: 0, batches: 0 };
  const release = openReleaseDir(releaseDir);
  const [started, ownCpu, childrenCpu] = [performance.now(), ownCpuSeconds(), childrenCpuSeconds()];
  await loadQueryTables(timedDb(db, times), release.manifest as Parameters<typeof loadQueryTables>[1], release);
  return {
    ...times,
    seconds: (performance.now() - started) / 1000,
    nodeCpuSeconds: ownCpuSeconds() - ownCpu,
    workerdCpuSeconds: childrenCpuSeconds() - childrenCpu,
  };
}

/** The load into an emptied local D1 through wrangler's platform proxy, as `catalog:publish` runs it. */
async function loadIntoD1(dataDir: string, size: number, releaseDir: string): Promise<LoadTimes> {
  const persistTo = path.join(dataDir, `d1load-state-${size}`);
  rmSync(persistTo, { recursive: true, force: true });
  const opened = await openDeploymentStorage({ persistTo });
  try {
    return await loadInto(opened.storage.db, releaseDir);
  } finally {
    await opened.dispose();
    rmSync(persistTo, { recursive: true, force: true });
  }
}

async function loadIntoSqlite(dataDir: string, size: number, releaseDir: string): Promise<LoadTimes> {
  const file = path.join(dataDir, `d1load-floor-${size}.sqlite`);
  rmSync(file, { force: true });
  const sqlite = await openSqliteDb(file);
  try {
    return await loadInto(sqlite.db, releaseDir);
  } finally {
    sqlite.close();
    rmSync(file, { force: true });
  }
}

const seconds = (value: number) => value.toFixed(1);

export const d1LoadBench: BenchModule = {
  name: "d1load",
  async run({ plan, sizes, dataDir, log }: BenchContext): Promise<BenchSection> {
    const rows: BenchRow[] = [];
    const summary: string[] = [];
    for (const size of sizes ?? SIZES[plan]) {
      const release = await builtRelease(dataDir, size, DEFAULT_PART_BYTES, log);
      const nodeOnly = await loadInto(NOTHING_DB, release.dir);
      const floor = await loadIntoSqlite(dataDir, size, release.dir);
      log(`loading ${count(size)} profiles into an empty local D1`);
      const d1 = await loadIntoD1(dataDir, size, release.dir);
      rows.push({
        case: `${count(size)} profiles`,
        "load (s)": seconds(d1.seconds),
        "in batch (s)": seconds(d1.batchSeconds),
        "in prepare/bind (s)": seconds(d1.bindSeconds),
        batches: d1.batches,
        "CPU Node / workerd (s)": `${seconds(d1.nodeCpuSeconds)} / ${seconds(d1.workerdCpuSeconds)}`,
        "SQLite in process (s)": seconds(floor.seconds),
        "in its batches (s)": seconds(floor.batchSeconds),
        "Node alone (s)": seconds(nodeOnly.seconds),
      });
      const target = size === TARGET_PROFILES ? ` (target ≤ ${TARGET_SECONDS} s)` : "";
      summary.push(
        `d1load ${count(size)}: ${seconds(d1.seconds)} s${target}; in batch ${seconds(d1.batchSeconds)} s, ` +
          `prepare/bind ${seconds(d1.bindSeconds)} s; SQLite in process ${seconds(floor.seconds)} s, ` +
          `Node alone ${seconds(nodeOnly.seconds)} s`,
      );
    }
    return {
      title: "D1 load (publish's query tables)",
      method:
        "`loadQueryTables` of a built release into an emptied local D1 through wrangler's platform proxy " +
        "(as `catalog:publish` locally), bodies included; its time inside `batch`, inside `prepare`/`bind` " +
        "(synchronous proxy round trips carrying the rows) and the CPU it cost Node and workerd. In the " +
        "same run, its floors: the same load into SQLite in process (`node:sqlite`, same schema) and into a " +
        `database that stores nothing (Node's own work). Target: ≤ ${TARGET_SECONDS} s at ${count(TARGET_PROFILES)}. ` +
        "With an in-flight batch overlapping Node's work, the time in `batch` includes waiting for it.",
      columns: [
        "case",
        "load (s)",
        "in batch (s)",
        "in prepare/bind (s)",
        "batches",
        "CPU Node / workerd (s)",
        "SQLite in process (s)",
        "in its batches (s)",
        "Node alone (s)",
      ],
      rows,
      summary,
    };
  },
};
