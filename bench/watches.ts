/**
 * The watches benchmark (issue 37 §5): a publish with 1 % of the catalog retested while 10,000
 * watches (a mix of filters, `q`, dates and profile lists) wait, against the same publish without
 * history and watches. The second is the first minus the time its history rows and watch
 * evaluation take, measured by doing that work again from scratch for the same event (both are
 * idempotent and derived from the release history). Figure: total ÷ (total − history − watches);
 * target ≤ 1.10.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULT_PART_BYTES } from "../src/common/catalog/parts";
import type { QueryFilter } from "../src/common/catalog/query-filter";
import { recordProfileHistory } from "../src/node/catalog/history-write";
import { publishRelease, type ReleaseStorage } from "../src/node/catalog/publish";
import { openReleaseDir } from "../src/node/catalog/release-dir";
import { recordWatchEvents } from "../src/node/catalog/watch-record";
import { changedRelease } from "./changed-dataset";
import { count, times } from "./serve-rows";
import { openDeploymentStorage } from "../src/node/local/deployment-storage";
import { type BuiltRelease, builtRelease } from "./served-releases";
import type { BenchContext, BenchModule, BenchSection } from "./types";

const PLANS = { full: [10_000, 100_000], quick: [1_000], smoke: [200] };
const WATCHES = 10_000;
const RETESTED_PERCENT = 1;
const TARGET = 1.1;

const GRADES = ["A", "B+", "B", "C+", "C", "D", "F"];
const STAGES = ["evaluate", "sign_up", "pay", "provision", "operate"];
const WORDS = ["api", "pay", "checkout", "ledger", "cloud", "data"];

/**
 * The i-th watch's filter: grades, grade and a stage's state, a stage's state and `q`, a test date,
 * a stage's state. Watches 1,000 apart share their query (as watches of many accounts do), so
 * 10,000 watches hold a few hundred distinct queries.
 */
function filterOf(i: number): QueryFilter {
  const k = i % 1_000;
  const j = Math.floor(k / 5);
  const grades: [string, string[]] = ["grade", [GRADES[j % 7] as string, GRADES[(j + 3) % 7] as string]];
  const stage: [string, string[]] = [`stage.${STAGES[j % 5]}`, [j % 2 ? "ready" : "limited"]];
  switch (k % 5) {
    case 0:
      return { filters: [grades] };
    case 1:
      return { filters: [[grades[0], [GRADES[j % 7] as string]], stage] };
    case 2:
      return { filters: [stage], q: WORDS[j % WORDS.length] as string };
    case 3:
      return { filters: [], testedAfter: { operator: ">=", value: new Date(Date.UTC(2026, 0, 1 + j)).toISOString() } };
    default:
      return { filters: [stage] };
  }
}

export const watchesBench: BenchModule = {
  name: "watches",
  async run({ dataDir, log, plan, sizes }: BenchContext): Promise<BenchSection> {
    const figures: Figure[] = [];
    for (const size of sizes ?? PLANS[plan]) {
      const base = await builtRelease(dataDir, size, DEFAULT_PART_BYTES, log);
      const retested = await changedRelease(dataDir, size, RETESTED_PERCENT, DEFAULT_PART_BYTES, log);
      const figure = await inFreshState((storage) => measure(storage, base, retested));
      log(`watches: ${line(figure)}`);
      figures.push(figure);
    }
    return {
      title: "Watches at publish (local D1)",
      method:
        `A generated catalog, then the same with ${RETESTED_PERCENT} % retested, published through the publish engine with ${count(WATCHES)} watches ` +
        "(grades, grade and stage, stage and q, a date, a stage; a few hundred distinct queries), each size in a fresh state; the publish without history and watches is the same publish minus the " +
        `time its history rows and watch evaluation take when done again for that event. Target: ≤ ${TARGET}×.`,
      columns: ["case", "watch events", "publish (s)", "history (s)", "watches (s)", "with ÷ without"],
      rows: figures.map((f) => ({
        case: `${count(f.profiles)} profiles, ${count(WATCHES)} watches`,
        "watch events": count(f.events),
        "publish (s)": (f.totalMs / 1000).toFixed(1),
        "history (s)": (f.historyMs / 1000).toFixed(2),
        "watches (s)": ((f.extraMs - f.historyMs) / 1000).toFixed(2),
        "with ÷ without": times(f.totalMs / (f.totalMs - f.extraMs)),
      })),
      summary: figures.map((f) => `watches ${line(f)}`),
    };
  },
};

/**
 * A state of its own, so the publish measured is a whole one (its parts uploaded, its query rows
 * loaded) on every run, not one the shared bench state already holds.
 */
async function inFreshState(work: (storage: ReleaseStorage) => Promise<Figure>): Promise<Figure> {
  const persistTo = mkdtempSync(path.join(tmpdir(), "bench-watches-"));
  const state = await openDeploymentStorage({ persistTo });
  try {
    return await work(state.storage);
  } finally {
    await state.dispose();
    rmSync(persistTo, { recursive: true, force: true });
  }
}

async function measure(storage: ReleaseStorage, base: BuiltRelease, retested: BuiltRelease): Promise<Figure> {
  const { db } = storage;
  await publishRelease(storage, openReleaseDir(base.dir));
  const rows = Array.from({ length: WATCHES }, (_, i) => [
    `wat_bench${String(i).padStart(15, "0")}`,
    JSON.stringify(filterOf(i)),
  ]);
  for (let i = 0; i < rows.length; i += 2_000)
    await db.batch([
      db
        .prepare(
          "INSERT INTO watches (id, account_id, name, query, filter, profiles, created_at) SELECT json_extract(value, '$[0]'), " +
            "'acct_bench', 'bench', json_extract(value, '$[1]'), json_extract(value, '$[1]'), NULL, " +
            "'2000-01-01T00:00:00.000Z' FROM json_each(?)",
        )
        .bind(JSON.stringify(rows.slice(i, i + 2_000))),
    ]);
  const started = performance.now();
  const published = await publishRelease(storage, openReleaseDir(retested.dir));
  const totalMs = performance.now() - started;
  if (published.query_rows_loaded === 0)
    throw new Error("the retested release was already loaded: not a whole publish");
  // The same event's history rows and watch events, removed and written again, timed.
  const last = await db.prepare("SELECT max(seq) AS seq FROM history_events").first<{ seq: number }>();
  const seq = last?.seq ?? 0;
  await db.batch([
    db
      .prepare(
        "DELETE FROM watch_event_profiles WHERE lists_id IN (SELECT lists_id FROM watch_events WHERE event_seq = ?)",
      )
      .bind(seq),
    db.prepare("DELETE FROM watch_events WHERE event_seq = ?").bind(seq),
    db.prepare("DELETE FROM watch_evaluations WHERE event_seq = ?").bind(seq),
    db.prepare("DELETE FROM history_profiles WHERE event_seq = ?").bind(seq),
    db.prepare("DELETE FROM history_events WHERE seq = ?").bind(seq),
  ]);
  const again = performance.now();
  await recordProfileHistory(storage);
  const historyMs = performance.now() - again;
  await recordWatchEvents(storage);
  const extraMs = performance.now() - again;
  const events = await db.prepare("SELECT count(*) AS n FROM watch_events").first<{ n: number }>();
  return { profiles: base.manifest.profile_count, totalMs, historyMs, extraMs, events: events?.n ?? 0 };
}

interface Figure {
  profiles: number;
  totalMs: number;
  /** The history rows' share of extraMs (the rest: the watch evaluation). */
  historyMs: number;
  extraMs: number;
  /** Watch events the publish wrote: most watches catch something at a 1 % retest. */
  events: number;
}

const line = (f: Figure) =>
  `${count(f.profiles)} profiles, ${count(WATCHES)} watches (${count(f.events)} events): publish ${(f.totalMs / 1000).toFixed(1)} s, history + watches ` +
  `${(f.extraMs / 1000).toFixed(2)} s (history ${(f.historyMs / 1000).toFixed(2)} s), ${times(f.totalMs / (f.totalMs - f.extraMs))} the publish without them (target ≤ ${TARGET}×)`;
