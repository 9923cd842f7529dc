/**
 * The watches benchmark (issue 37 §5): a publish with 1 % of the catalog retested while 10,000
 * watches (a mix of filters, `q`, dates and profile lists) wait, against the same publish without
 * history and watches. The second is the first minus the time its history rows and watch
 * evaluation take, measured by doing that work again from scratch for the same event (both are
 * idempotent and derived from the release history). Figure: total ÷ (total − history − watches);
 * target ≤ 1.10.
 */
import { DEFAULT_PART_BYTES } from "../src/common/catalog/parts";
import type { QueryFilter } from "../src/common/catalog/query-filter";
import { recordProfileHistory } from "../src/node/catalog/history-write";
import { recordWatchEvents } from "../src/node/catalog/watch-record";
import { changedRelease } from "./changed-dataset";
import { count, times } from "./serve-rows";
import { builtRelease } from "./served-releases";
import type { BenchContext, BenchModule, BenchSection } from "./types";

const PLANS = { full: [10_000], quick: [1_000], smoke: [200] };
const WATCHES = 10_000;
const RETESTED_PERCENT = 1;
const TARGET = 1.1;

const GRADES = ["A", "B+", "B", "C+", "C", "D", "F"];
const STAGES = ["evaluate", "sign_up", "pay", "provision", "operate"];
const WORDS = ["api", "pay", "checkout", "ledger", "cloud", "data"];

/** The i-th watch's filter: grades, a stage's state, `q`, a date, or both of two. */
function filterOf(i: number): QueryFilter {
  const grade: [string, string[]] = ["grade", [GRADES[i % 7] as string]];
  const stage: [string, string[]] = [`stage.${STAGES[i % 5]}`, [i % 2 ? "ready" : "limited"]];
  switch (i % 5) {
    case 0:
      return { filters: [grade] };
    case 1:
      return { filters: [grade, stage] };
    case 2:
      return { filters: [stage], q: WORDS[i % WORDS.length] as string };
    case 3:
      return { filters: [], testedAfter: { operator: ">=", value: "2026-06-01T00:00:00.000Z" } };
    default:
      return { filters: [stage] };
  }
}

export const watchesBench: BenchModule = {
  name: "watches",
  async run({ rig, dataDir, log, plan, sizes }: BenchContext): Promise<BenchSection> {
    const figures: { profiles: number; totalMs: number; extraMs: number }[] = [];
    for (const size of sizes ?? PLANS[plan]) {
      const base = await builtRelease(dataDir, size, DEFAULT_PART_BYTES, log);
      const retested = await changedRelease(dataDir, size, RETESTED_PERCENT, DEFAULT_PART_BYTES, log);
      const storage = await rig.storage();
      const { db } = storage;
      // No watch of an interrupted earlier run may weigh on the publish of the base release.
      await db.batch([db.prepare("DELETE FROM watches")]);
      await rig.makeCurrent(base);
      // Earlier events of the bench's state are not this case's work: marked evaluated.
      await db.batch([
        db.prepare("DELETE FROM watches"),
        db.prepare("INSERT OR IGNORE INTO watch_evaluations SELECT seq, 'bench' FROM history_events"),
      ]);
      const rows = Array.from({ length: WATCHES }, (_, i) => [
        `wat_bench${String(i).padStart(15, "0")}`,
        JSON.stringify(filterOf(i)),
      ]);
      for (let i = 0; i < rows.length; i += 2_000)
        await db.batch([
          db
            .prepare(
              "INSERT INTO watches (id, account_id, name, query, filter, profiles, created_at) SELECT json_extract(value, '$[0]'), " +
                "'acct_bench', 'bench', 'bench', json_extract(value, '$[1]'), NULL, '2000-01-01T00:00:00.000Z' FROM json_each(?)",
            )
            .bind(JSON.stringify(rows.slice(i, i + 2_000))),
        ]);
      const started = performance.now();
      await rig.makeCurrent(retested);
      const totalMs = performance.now() - started;
      // The same event's history rows and watch events, removed and written again, timed.
      const last = await db.prepare("SELECT max(seq) AS seq FROM history_events").first<{ seq: number }>();
      const seq = last?.seq ?? 0;
      await db.batch([
        db
          .prepare(
            "DELETE FROM watch_event_profiles WHERE event_id IN (SELECT id FROM watch_events WHERE event_seq = ?)",
          )
          .bind(seq),
        db.prepare("DELETE FROM watch_events WHERE event_seq = ?").bind(seq),
        db.prepare("DELETE FROM watch_evaluations WHERE event_seq = ?").bind(seq),
        db.prepare("DELETE FROM history_profiles WHERE event_seq = ?").bind(seq),
        db.prepare("DELETE FROM history_events WHERE seq = ?").bind(seq),
      ]);
      const again = performance.now();
      await recordProfileHistory(storage);
      await recordWatchEvents(storage);
      const extraMs = performance.now() - again;
      await db.batch([db.prepare("DELETE FROM watches WHERE account_id = 'acct_bench'")]);
      const figure = { profiles: size, totalMs, extraMs };
      log(`watches: ${line(figure)}`);
      figures.push(figure);
    }
    return {
      title: "Watches at publish (local D1)",
      method:
        `A generated catalog, then the same with ${RETESTED_PERCENT} % retested, published through the publish engine with ${count(WATCHES)} watches ` +
        "(grades, grade and stage, stage and q, a date, a stage); the publish without history and watches is the same publish minus the " +
        `time its history rows and watch evaluation take when done again for that event. Target: ≤ ${TARGET}×.`,
      columns: ["case", "publish (s)", "history + watches (s)", "with ÷ without"],
      rows: figures.map((f) => ({
        case: `${count(f.profiles)} profiles, ${count(WATCHES)} watches`,
        "publish (s)": (f.totalMs / 1000).toFixed(1),
        "history + watches (s)": (f.extraMs / 1000).toFixed(2),
        "with ÷ without": times(f.totalMs / (f.totalMs - f.extraMs)),
      })),
      summary: figures.map((f) => `watches ${line(f)}`),
    };
  },
};

const line = (f: { profiles: number; totalMs: number; extraMs: number }) =>
  `${count(f.profiles)} profiles, ${count(WATCHES)} watches: publish ${(f.totalMs / 1000).toFixed(1)} s, history + watches ` +
  `${(f.extraMs / 1000).toFixed(2)} s, ${times(f.totalMs / (f.totalMs - f.extraMs))} the publish without them (target ≤ ${TARGET}×)`;
