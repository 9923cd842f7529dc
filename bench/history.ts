/**
 * The history benchmark (issue 37 §5): GET /v1/profiles/{product}/{funnel}/history (many different
 * profiles) and GET /v1/releases/{id}/changes/summary (two releases 1 % apart) loaded in the same
 * rounds as lookups of the same profiles, under `wrangler dev` with its local D1, after publishing a
 * generated catalog and the same catalog with 1 % retested, then rollbacks between the two until
 * the history holds `events` events at which 1 % changed. A case's figure is its p50 ÷ the lookup's
 * p50 in the same round (median over the rounds). Targets: history ≤ 1.5×, summary ≤ 2×.
 * Also: how long the retested publish took.
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

/** `events`: the release-history events the bench makes (2 publishes, then rollbacks between them). */
const PLANS = {
  full: { sizes: [10_000, 100_000], rounds: 3, length: { seconds: 5 }, warmupSeconds: 2, events: 50 },
  quick: { sizes: [1_000], rounds: 1, length: { seconds: 1.5 }, warmupSeconds: 1, events: 6 },
  smoke: { sizes: [200], rounds: 1, length: { requests: 30 }, warmupSeconds: 0, events: 4 },
};
const CONNECTIONS = 10;
const TARGETS = { history: 1.5, summary: 2 };
const RETESTED_PERCENT = 1;

interface SizeFigures {
  profiles: number;
  publishSeconds: number;
  events: number;
  loads: Record<Case | "lookup" | "floor", RoundedLoad>;
  ratios: Record<Case, number>;
}

type Case = "history" | "churned" | "summary";

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
      const [baseId, retestedId] = [base.manifest.release_id, retested.manifest.release_id];
      // Back and forth until the history holds plan.events events, each changing the same 1 %.
      for (let event = 2; event < plan.events; event++) await rig.rollBackTo(event % 2 ? retestedId : baseId);
      await rig.settle();
      const scopes = sampledProfiles(base.dir).map(([product, funnel]) => `/v1/profiles/${product}/${funnel}`);
      const histories = scopes.map((scope) => `${scope}/history`);
      const churned = (await retestedScopes(real.url, auth, retestedId, baseId)).map((scope) => `${scope}/history`);
      const summary = `/v1/releases/${retestedId}/changes/summary?since=${baseId}`;
      for (const url of [expectDefined(histories[0], "a sampled profile"), summary])
        await expectOk(real.url, url, auth);
      log(`history: ${count(size)} profiles`);
      const loads = await loadRounds(
        { ...load("/"), url: `${ok.url}/`, headers: {} },
        {
          lookup: load(expectDefined(scopes[0], "a scope"), scopes),
          history: load(expectDefined(histories[0], "a history"), histories),
          churned: load(expectDefined(churned[0], "a retested profile's history"), churned),
          summary: load(summary),
        },
        plan.rounds,
        log,
      );
      const ratio = (name: Case) =>
        median(perRound(loads[name].p50sMs, loads.lookup.p50sMs, (p50, lookup) => p50 / lookup));
      const figure = {
        profiles: size,
        publishSeconds,
        events: plan.events,
        loads,
        ratios: { history: ratio("history"), churned: ratio("churned"), summary: ratio("summary") },
      };
      log(`history: ${summaryOf(figure)}`);
      figures.push(figure);
    }
    return section(figures);
  },
};

/** The scopes of the profiles retested between the pair: those every event of the bench changed. */
async function retestedScopes(origin: string, headers: Record<string, string>, release: string, since: string) {
  const response = await fetch(`${origin}/v1/releases/${release}/changes?since=${since}`, { headers });
  if (response.status !== 200) throw new Error(`the changes of the retested release answered ${response.status}`);
  const { data } = (await response.json()) as { data: { product_key: string; funnel_key: string }[] };
  return data.map((change) => `/v1/profiles/${change.product_key}/${change.funnel_key}`);
}

async function expectOk(origin: string, url: string, headers: Record<string, string>) {
  const response = await fetch(`${origin}${url}`, { headers });
  await response.body?.cancel();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
}

const summaryOf = (f: SizeFigures) =>
  `${count(f.profiles)} profiles, ${f.events} events, lookup p50 ${ms(f.loads.lookup.p50Ms)} ms; history ${times(f.ratios.history)}, ` +
  `of a profile changed at every event ${times(f.ratios.churned)} (target ≤ ${TARGETS.history}×), summary ${times(f.ratios.summary)} (target ≤ ${TARGETS.summary}×); ` +
  `publish of the ${RETESTED_PERCENT} % retested release ${f.publishSeconds.toFixed(1)} s`;

function section(figures: SizeFigures[]): BenchSection {
  const rows: BenchRow[] = figures.flatMap((f) => [
    loadRow(`lookup by scope, ${count(f.profiles)} profiles`, f.loads.lookup),
    {
      ...loadRow(`…/history, ${count(f.profiles)} profiles, ${f.events} events`, f.loads.history),
      "p50 ÷ lookup": times(f.ratios.history),
    },
    {
      ...loadRow(`…/history of the 1 % changed at each of ${f.events} events`, f.loads.churned),
      "p50 ÷ lookup": times(f.ratios.churned),
    },
    {
      ...loadRow(`…/changes/summary (${RETESTED_PERCENT} % apart), ${count(f.profiles)} profiles`, f.loads.summary),
      "p50 ÷ lookup": times(f.ratios.summary),
    },
  ]);
  return {
    title: "History (D1, under wrangler dev)",
    method:
      `A generated catalog, then the same with ${RETESTED_PERCENT} % retested, published through the publish engine (which writes the history rows), ` +
      "then rolled back and forth between the two (each rollback an event with its history rows) until the history holds the plan's events; " +
      `then GET …/history of many different profiles, of the retested ones (an entry per event), and GET …/changes/summary of the two releases, each loaded (${CONNECTIONS} connections) ` +
      "in the same rounds as lookups of the same profiles by scope; a case's figure is its p50 ÷ the lookup's p50 in the same round " +
      `(median over the rounds). Targets: history ≤ ${TARGETS.history}×, summary ≤ ${TARGETS.summary}×.`,
    columns: ["case", "req/s", "p50 (ms)", "p99 (ms)", "req/s ÷ bare worker", "p50 ÷ lookup"],
    rows,
    summary: figures.map((f) => `history ${summaryOf(f)}`),
  };
}
