/**
 * The query benchmark (issue 26): GET /v1/profiles cases loaded in the same rounds as a profile
 * lookup (many different profiles by scope) on the same release, under the real `wrangler dev`
 * with its local D1, at each catalog size. A case's figure is its p50 ÷ the lookup's p50 in the
 * same round (median over the rounds). Targets: every case ≤ 2× a lookup, and each case's ratio at
 * the largest size within 1.3× its ratio at the smallest. Also: the publish's D1 load time, and in
 * the same rounds the MCP case (mcp-case.ts): `search_profiles` through /mcp against the same query.
 */
import { expectDefined } from "../src/common/expect";
import { DEFAULT_PART_BYTES } from "../src/common/catalog/parts";
import { provisionBenchKey } from "./bench-servers";
import { loaderOf, loadRounds, type LoadOptions, type RoundedLoad } from "./load";
import {
  expectSameAnswer,
  MCP_TARGET_RATIO,
  mcpFigures,
  mcpLoad,
  mcpRows,
  mcpSummary,
  restTextSearch,
  searchToolLoad,
  REST_SEARCH,
  type McpFigures,
} from "./mcp-case";
import { viewSizes, viewSummary, type ViewSizes } from "./mcp-app-size";
import { median, perRound } from "./measure";
import { sampledProfiles } from "./serve-lookup";
import { count, loadRow, ms, times } from "./serve-rows";
import { builtRelease, type BuiltRelease } from "./served-releases";
import type { BenchContext, BenchModule, BenchRow, BenchSection } from "./types";

const PLANS = {
  full: { sizes: [10_000, 100_000], rounds: 3, length: { seconds: 5 }, warmupSeconds: 2 },
  quick: { sizes: [1_000], rounds: 1, length: { seconds: 1.5 }, warmupSeconds: 1 },
  smoke: { sizes: [200], rounds: 1, length: { requests: 30 }, warmupSeconds: 0 },
};
const CONNECTIONS = 10;
const TARGET_RATIO = 2;
const TARGET_GROWTH = 1.3;

/** The cases, by name: the query URL (page 50 is found by walking `next`). */
const CASES = {
  broad: "/v1/profiles?grade=A",
  combined: "/v1/profiles?funnel=checkout&stage.pay=limited",
  selective: "", // one product's profiles (< 0.1 %): filled in from the release
  q: "/v1/profiles?q=ledger",
  facets: "/v1/profiles?grade=A&facets=stage.pay,funnel,primary_stage",
  page50: "", // page 50 of `broad`
};
type CaseName = keyof typeof CASES;

interface SizeFigures {
  profiles: number;
  loadSeconds: number;
  loads: Record<CaseName | "lookup" | "floor" | "search" | "mcp" | "textSearch" | "searchTool", RoundedLoad>;
  ratios: Record<CaseName, number>;
  mcp: McpFigures;
  searchTool: McpFigures;
  views: ViewSizes;
}

export const queryBench: BenchModule = {
  name: "query",
  async run(context: BenchContext): Promise<BenchSection> {
    const { sizes, dataDir, log, rig } = context;
    const plan = { ...PLANS[context.plan], ...(sizes && { sizes }) };
    const releases: BuiltRelease[] = [];
    for (const size of plan.sizes) releases.push(await builtRelease(dataDir, size, DEFAULT_PART_BYTES, log));
    const [ok, real] = await Promise.all([rig.server("ok"), rig.server("catalog")]);
    const auth = { Authorization: `Bearer ${await provisionBenchKey(real)}` };
    const load = loaderOf({
      headers: auth,
      connections: CONNECTIONS,
      length: plan.length,
      warmupSeconds: plan.warmupSeconds,
    });
    const figures: SizeFigures[] = [];
    for (const release of releases) {
      const published = await rig.makeCurrent(release);
      const sample = sampledProfiles(release.dir);
      const lookups = sample.map(([product, funnel]) => `/v1/profiles/${product}/${funnel}`);
      const cases: Record<CaseName, string> = {
        ...CASES,
        selective: `/v1/profiles?product=${expectDefined(sample[0], "a sampled profile")[0]}`,
        page50: await pageUrl(real.url, CASES.broad, 50, auth),
      };
      for (const url of Object.values(cases)) await expectOk(`${real.url}${url}`, auth);
      await expectSameAnswer(real.url, auth);
      // The `search` tool's query: the first word of a sampled product key, a full-text query with matches.
      const word = expectDefined(sample[0], "a sampled profile")[0].split("-")[0] ?? "api";
      const views = await viewSizes(real.url, auth, sample);
      log(`query: ${count(release.manifest.profile_count)} profiles`);
      const loads = await loadRounds(
        { ...load(`${ok.url}/`), headers: {} },
        {
          lookup: load(`${real.url}${lookups[0]}`, lookups),
          ...(Object.fromEntries(
            Object.entries(cases).map(([name, url]) => [name, load(`${real.url}${url}`)]),
          ) as Record<CaseName, LoadOptions>),
          search: load(`${real.url}${REST_SEARCH}`),
          mcp: mcpLoad(load(`${real.url}${REST_SEARCH}`)),
          textSearch: load(`${real.url}${restTextSearch(word)}`),
          searchTool: searchToolLoad(load(`${real.url}${restTextSearch(word)}`), word),
        },
        plan.rounds,
        log,
      );
      const ratios = Object.fromEntries(
        (Object.keys(CASES) as CaseName[]).map((name) => [
          name,
          median(perRound(loads[name].p50sMs, loads.lookup.p50sMs, (p50, lookup) => p50 / lookup)),
        ]),
      ) as Record<CaseName, number>;
      const size = {
        profiles: release.manifest.profile_count,
        loadSeconds: published.query_load_ms / 1000,
        loads,
        ratios,
        mcp: mcpFigures(
          { tool: "search_profiles", restQuery: REST_SEARCH },
          release.manifest.profile_count,
          loads.search,
          loads.mcp,
        ),
        searchTool: mcpFigures(
          { tool: "search", restQuery: restTextSearch(word) },
          release.manifest.profile_count,
          loads.textSearch,
          loads.searchTool,
        ),
        views,
      };
      log(`query: ${summaryOf(size)}`);
      log(mcpSummary(size.mcp));
      log(mcpSummary(size.searchTool));
      log(viewSummary(count(size.profiles), views));
      figures.push(size);
    }
    return section(figures);
  },
};

/**
 * The pinned URL of page `n` (limit 20) of a query, by following `next`; its last page when it has
 * fewer (the quick and smoke benches' small catalogs).
 */
async function pageUrl(origin: string, first: string, n: number, headers: Record<string, string>) {
  let url = first;
  for (let page = 1; page < n; page++) {
    const body = (await (await fetch(`${origin}${url}`, { headers })).json()) as { next: string | null };
    if (!body.next) return url;
    url = body.next;
  }
  return url;
}

async function expectOk(url: string, headers: Record<string, string>) {
  const response = await fetch(url, { headers });
  await response.body?.cancel();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
}

const summaryOf = (size: SizeFigures) =>
  `${count(size.profiles)} profiles, lookup p50 ${ms(size.loads.lookup.p50Ms)} ms; ` +
  (Object.keys(CASES) as CaseName[]).map((name) => `${name} ${times(size.ratios[name])}`).join(", ") +
  `; D1 load ${size.loadSeconds.toFixed(1)} s`;

function section(figures: SizeFigures[]): BenchSection {
  const rows: BenchRow[] = figures.flatMap((size) => [
    loadRow(`lookup by scope, ${count(size.profiles)} profiles`, size.loads.lookup),
    ...(Object.keys(CASES) as CaseName[]).map((name) => ({
      ...loadRow(`${name}, ${count(size.profiles)} profiles`, size.loads[name]),
      "p50 ÷ lookup": times(size.ratios[name]),
    })),
    ...mcpRows(size.mcp),
    ...mcpRows(size.searchTool),
  ]);
  const smallest = expectDefined(figures[0], "the smallest size measured");
  const largest = expectDefined(figures.at(-1), "the largest size measured");
  const growth = (name: CaseName) => largest.ratios[name] / smallest.ratios[name];
  return {
    title: "Queries (GET /v1/profiles on D1, under wrangler dev)",
    method:
      `Each case is loaded (${CONNECTIONS} connections) in the same rounds as lookups of many different profiles by scope on the same release; ` +
      "a case's figure is its p50 ÷ the lookup's p50 in the same round (median over the rounds). Cases: " +
      Object.entries(CASES)
        .map(
          ([name, url]) =>
            `${name} ${url || (name === "page50" ? "(page 50 of broad, or its last page if fewer)" : "(one product)")}`,
        )
        .join("; ") +
      `. Targets: every case ≤ ${TARGET_RATIO}× a lookup; each case's ratio at the largest size within ${TARGET_GROWTH}× its ratio at the smallest; the D1 load at 100k ≤ 60 s. ` +
      `MCP: \`search_profiles\` through \`POST /mcp\` (a stateless JSON-RPC \`tools/call\`) and the same query as \`GET ${REST_SEARCH}\`, ` +
      `loaded in the same rounds; its figure is its p50 ÷ the REST request's p50 in the same round (target ≤ ${MCP_TARGET_RATIO}×).`,
    columns: ["case", "req/s", "p50 (ms)", "p99 (ms)", "req/s ÷ bare worker", "p50 ÷ lookup", "p50 ÷ REST"],
    rows,
    summary: [
      ...figures.map((size) => `query ${summaryOf(size)}`),
      ...figures.flatMap((size) => [
        mcpSummary(size.mcp),
        mcpSummary(size.searchTool),
        viewSummary(count(size.profiles), size.views),
      ]),
      ...(figures.length > 1
        ? [
            `query growth ${count(smallest.profiles)} → ${count(largest.profiles)} (target ≤ ${TARGET_GROWTH}×): ` +
              (Object.keys(CASES) as CaseName[]).map((name) => `${name} ${times(growth(name))}`).join(", "),
          ]
        : []),
    ],
  };
}
