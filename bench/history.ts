/**
 * The history benchmark (issue 37 §5): GET /v1/profiles/{product}/{funnel}/history (many different
 * profiles) and GET /v1/releases/{id}/changes/summary (two releases 1 % apart) loaded in the same
 * rounds as lookups of the same profiles, under `wrangler dev` with its local D1, after publishing a
 * generated catalog and the same catalog with 1 % retested. A case's figure is its p50 ÷ the
 * lookup's p50 in the same round (median over the rounds). Targets: history ≤ 1.5×, summary ≤ 2×.
 * Also: how long the retested publish took, and its share spent writing the history rows.
 */
import { DEFAULT_PART_BYTES } from "../src/common/catalog/parts";
import { expectDefined } from "../src/common/expect";
import { provisionBenchKey } from "./bench-servers";
import { changedRelease } from "./changed-dataset";
import { loaderOf, loadRounds, type RoundedLoad } from "./load";
import { median, perRound } from "./measure";
import { sampledProfiles } from "./serve-lookup";
import { count, loadRow, ms, times } from "./serve-rows";
import { builtRelease } from "./served-releases";
import type { BenchContext, BenchModule, BenchRow, BenchSection } from "./types";

const PLANS = {
  full: { sizes: [10_000, 100_000], rounds: 3, length: { seconds: 5 }, warmupSeconds: 2 },
  quick: { sizes: [1_000], rounds: 1, length: { seconds: 1.5 }, warmupSeconds: 1 },
  smoke: { sizes: [200], rounds: 1, length: { requests: 30 }, warmupSeconds: 0 },
};
const CONNECTIONS = 10;
const TARGETS = { history: 1.5, summary: 2 };
const RETESTED_PERCENT = 1;

interface SizeFigures {
  profiles: number;
  publishSeconds: number;
  loads: Record<"lookup" | "history" | "summary" | "floor", RoundedLoad>;
  ratios: Record<"history" | "summary", number>;
}

export const historyBench: BenchModule = {
  name: "history",
  async run(context: BenchContext): Promise<BenchSection> {
    const { dataDir, log, rig } = context;
    const plan = { ...PLANS[context.plan], ...(context.sizes && { sizes: context.sizes }) };
    const real = await rig.server("catalog");
    const ok = await rig.server("ok");
    const auth = { Authorization: `Bearer ${await provisionBenchKey(real)}` };
    const loader = loaderOf({
      headers: auth,
      connections: CONNECTIONS,
      length: plan.length,
      warmupSeconds: plan.warmupSeconds,
    });
    const load = (path: string, paths?: string[]) => loader(`${real.url}${path}`, paths);
    const figures: SizeFigures[] = [];
    for (const size of plan.sizes) {
      const base = await builtRelease(dataDir, size, DEFAULT_PART_BYTES, log);
      const retested = await changedRelease(dataDir, size, RETESTED_PERCENT, DEFAULT_PART_BYTES, log);
      await rig.makeCurrent(base);
      const started = performance.now();
      await rig.makeCurrent(retested);
      const publishSeconds = (performance.now() - started) / 1000;
      const scopes = sampledProfiles(base.dir).map(([product, funnel]) => `/v1/profiles/${product}/${funnel}`);
      const histories = scopes.map((scope) => `${scope}/history`);
      const summary = `/v1/releases/${retested.manifest.release_id}/changes/summary?since=${base.manifest.release_id}`;
      for (const url of [expectDefined(histories[0], "a sampled profile"), summary])
        await expectOk(real.url, url, auth);
      log(`history: ${count(size)} profiles`);
      const loads = await loadRounds(
        { ...load("/"), url: `${ok.url}/`, headers: {} },
        {
          lookup: load(expectDefined(scopes[0], "a scope"), scopes),
          history: load(expectDefined(histories[0], "a history"), histories),
          summary: load(summary),
        },
        plan.rounds,
        log,
      );
      const ratio = (name: "history" | "summary") =>
        median(perRound(loads[name].p50sMs, loads.lookup.p50sMs, (p50, lookup) => p50 / lookup));
      const figure = {
        profiles: size,
        publishSeconds,
        loads,
        ratios: { history: ratio("history"), summary: ratio("summary") },
      };
      log(`history: ${summaryOf(figure)}`);
      figures.push(figure);
    }
    return section(figures);
  },
};

async function expectOk(origin: string, url: string, headers: Record<string, string>) {
  const response = await fetch(`${origin}${url}`, { headers });
  await response.body?.cancel();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
}

const summaryOf = (f: SizeFigures) =>
  `${count(f.profiles)} profiles, lookup p50 ${ms(f.loads.lookup.p50Ms)} ms; history ${times(f.ratios.history)} ` +
  `(target ≤ ${TARGETS.history}×), summary ${times(f.ratios.summary)} (target ≤ ${TARGETS.summary}×); ` +
  `publish of the ${RETESTED_PERCENT} % retested release ${f.publishSeconds.toFixed(1)} s`;

function section(figures: SizeFigures[]): BenchSection {
  const rows: BenchRow[] = figures.flatMap((f) => [
    loadRow(`lookup by scope, ${count(f.profiles)} profiles`, f.loads.lookup),
    {
      ...loadRow(`…/history, ${count(f.profiles)} profiles`, f.loads.history),
      "p50 ÷ lookup": times(f.ratios.history),
    },
    {
      ...loadRow(`…/changes/summary (${RETESTED_PERCENT} % apart), ${count(f.profiles)} profiles`, f.loads.summary),
      "p50 ÷ lookup": times(f.ratios.summary),
    },
  ]);
  return {
    title: "History (D1, under wrangler dev)",
    method:
      `A generated catalog, then the same with ${RETESTED_PERCENT} % retested, published through the publish engine (which writes the history rows); ` +
      `then GET …/history of many different profiles and GET …/changes/summary of the two releases, each loaded (${CONNECTIONS} connections) ` +
      "in the same rounds as lookups of the same profiles by scope; a case's figure is its p50 ÷ the lookup's p50 in the same round " +
      `(median over the rounds). Targets: history ≤ ${TARGETS.history}×, summary ≤ ${TARGETS.summary}×.`,
    columns: ["case", "req/s", "p50 (ms)", "p99 (ms)", "req/s ÷ bare worker", "p50 ÷ lookup"],
    rows,
    summary: figures.map((f) => `history ${summaryOf(f)}`),
  };
}
