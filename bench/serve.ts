/**
 * Serve benchmark (issue 7): the real worker in local workerd under the real `wrangler dev`, loaded
 * by autocannon, against floors measured in the same run under the same harness:
 * - request rate and p50/p99 of an authenticated, rate-limited part and of /v1/releases/current,
 *   ÷ a bare Hono "ok" worker (bench/workers/ok.ts);
 * - the rate limiter's cost: the same part route with and without it (bench/workers/limiter-switch.ts);
 * - admission leases against one SubjectGuard RPC per request, the SubjectGuard local or far (admission-cases.ts);
 * - the whole /v1/catalog: time to first byte and MB/s for a small and a large catalog, and the RSS
 *   of the workerd process that runs the worker before, during (peak, sampled) and after streaming;
 * - one profile by scope and by id (many different ones) against the manifest request, at both
 *   sizes (serve-lookup.ts).
 */
import { expectDefined } from "../src/common/expect";
import { DEFAULT_PART_BYTES } from "../src/common/catalog/parts";
import { admissionKeys, admissionLoads, admissionRows, admissionSummary, type FarCase } from "./admission-cases";
import { provisionBenchKey, rssBytes, workerPid, type BenchServer } from "./bench-servers";
import { loadRounds, type LoadOptions, type RoundedLoad } from "./load";
import { measureDocument, type DocumentFigures } from "./serve-document";
import { count, loadRow, mib, ms, signed, times, usageRow } from "./serve-rows";
import { lookupRows, lookupSummary, measureLookups, type LookupFigures } from "./serve-lookup";
import { builtRelease, type BuiltRelease } from "./served-releases";
import type { BenchContext, BenchModule, BenchRow, BenchSection } from "./types";

/**
 * `rateProfiles`: the release the part requests read, in small parts, so that a part request
 * measures the edge path (auth, limiter, lookups), not bandwidth. Its own profile count: a release
 * id names content, not layout, so no document size may reuse it.
 */
const PLANS = {
  full: {
    documents: [10_000, 100_000],
    rateProfiles: 500,
    rounds: 3,
    length: { seconds: 5 },
    warmupSeconds: 2,
    downloads: 3,
  },
  quick: {
    documents: [1_000, 5_000],
    rateProfiles: 500,
    rounds: 1,
    length: { seconds: 1.5 },
    warmupSeconds: 1,
    downloads: 2,
  },
  smoke: {
    documents: [200, 400],
    rateProfiles: 100,
    rounds: 1,
    length: { requests: 30 },
    warmupSeconds: 0,
    downloads: 1,
  },
};
const RATE_PART_BYTES = 16 * 1024;
const RATE_PART = 1;
const CONNECTIONS = 10;
const LIMITER_OFF = { "Bench-Limiter": "off" };
/** The same route with the usage counter (bench/workers/limiter-switch.ts): its cost, in the same rounds. */
const USAGE_ON = { "Bench-Usage": "on" };

export const serveBench: BenchModule = {
  name: "serve",
  async run(context: BenchContext): Promise<BenchSection> {
    const { dataDir, log, rig } = context;
    const plan = PLANS[context.plan];
    const rateRelease = await builtRelease(dataDir, plan.rateProfiles, RATE_PART_BYTES, log);
    const documentReleases: BuiltRelease[] = [];
    for (const count of plan.documents)
      documentReleases.push(await builtRelease(dataDir, count, DEFAULT_PART_BYTES, log));

    // The floor runs beside every measured server and is loaded in turn with it, round by round,
    // so that whatever else the machine does hits floor and figure alike.
    // Both started at once, so that what one start waits for overlaps the other's work.
    const [ok, real] = await Promise.all([rig.server("ok"), rig.server("catalog")]);
    const okPid = workerPid(ok);
    const okRssBefore = rssBytes(okPid);
    const load = (url: string, headers: Record<string, string> = {}): LoadOptions => ({
      url,
      headers,
      connections: CONNECTIONS,
      length: plan.length,
      warmupSeconds: plan.warmupSeconds,
    });
    const rounds = <K extends string>(subjects: Record<K, LoadOptions>) =>
      loadRounds(load(`${ok.url}/`), subjects, plan.rounds, log);

    const auth = { Authorization: `Bearer ${await provisionBenchKey(real)}` };
    const farKeys = await admissionKeys(real);
    const documents: DocumentFigures[] = [];
    const lookups: LookupFigures[] = [];
    for (const release of documentReleases) {
      await rig.makeCurrent(release);
      log(`serve: /v1/catalog of ${release.manifest.profile_count} profiles`);
      documents.push(await measureDocument(real, release.manifest, auth, plan.downloads));
      log(`serve: profile lookups in ${release.manifest.profile_count} profiles`);
      lookups.push(await measureLookups(real, release, auth, load, rounds));
    }
    await rig.makeCurrent(rateRelease);
    const edge = await rounds({
      part: load(`${real.url}/v1/catalog/parts/${RATE_PART}`, auth),
      manifest: load(`${real.url}/v1/releases/current`, auth),
    });
    // It stops the real worker, which shares its state.
    const bench = await rig.server("limiter-switch");
    const url = `${bench.url}/v1/catalog/parts/${RATE_PART}`;
    await expectLimiter(url, auth, true);
    await expectLimiter(url, { ...auth, ...LIMITER_OFF }, false);
    const far = await admissionLoads(url, farKeys, (headers) => load(url, headers));
    const { on, off, usage, floor, ...farLoads } = await rounds({
      on: load(url, auth),
      off: load(url, { ...auth, ...LIMITER_OFF }),
      usage: load(url, { ...auth, ...USAGE_ON }),
      ...far,
    });
    const limiter = { on, off, usage, floor };
    // The harness's own memory growth, for scale: workerd under wrangler dev grows with every request, even for "ok".
    // Over a long run wrangler dev may replace the floor's workerd process; its growth then has no
    // before and after of one process, so it is not reported rather than failing the whole bench.
    const okRssAfter = sameWorkerd(ok, okPid) ? rssBytes(okPid) : undefined;
    const harnessGrowthPerRequest =
      okRssAfter === undefined
        ? undefined
        : (okRssAfter - okRssBefore) / (edge.floor.requests + limiter.floor.requests);
    return section({
      rateProfiles: plan.rateProfiles,
      documents,
      lookups,
      edge,
      limiter,
      far: farLoads,
      harnessGrowthPerRequest,
    });
  },
};

/** The switch must really switch: only the limited variant answers with RateLimit headers. */
async function expectLimiter(url: string, headers: Record<string, string>, limited: boolean): Promise<void> {
  const response = await fetch(url, { headers });
  await response.body?.cancel();
  if (response.status !== 200 || response.headers.has("RateLimit") !== limited) {
    throw new Error(
      `limiter switch: GET ${url} answered ${response.status} ${limited ? "without" : "with"} a RateLimit header`,
    );
  }
}

interface Measured {
  rateProfiles: number;
  documents: DocumentFigures[];
  lookups: LookupFigures[];
  edge: Record<"part" | "manifest" | "floor", RoundedLoad>;
  limiter: Record<"on" | "off" | "usage" | "floor", RoundedLoad>;
  far: Record<FarCase, RoundedLoad>;
  harnessGrowthPerRequest: number | undefined;
}

/** True while `pid` still is the workerd process serving `server`. */
function sameWorkerd(server: BenchServer, pid: number): boolean {
  try {
    return workerPid(server) === pid;
  } catch {
    return false;
  }
}

function section(measured: Measured): BenchSection {
  const { rateProfiles, documents, lookups, edge, limiter, far, harnessGrowthPerRequest } = measured;
  const partLabel = `GET /v1/catalog/parts/${RATE_PART} (${RATE_PART_BYTES / 1024} KiB part)`;
  const rows: BenchRow[] = [
    {
      ...loadRow('bare Hono worker: GET / → "ok" (floor)', edge.floor),
      "workerd RSS before → peak → after (MiB)":
        harnessGrowthPerRequest === undefined
          ? "n/a (wrangler dev replaced its workerd process during the run)"
          : `+${(harnessGrowthPerRequest / 1024).toFixed(1)} KiB per request (the harness's own growth)`,
    },
    loadRow(`${partLabel}, authenticated + rate-limited`, edge.part),
    loadRow("GET /v1/releases/current, authenticated + rate-limited", edge.manifest),
    loadRow(`${partLabel}, bench worker without the limiter`, limiter.off),
    usageRow(`${partLabel}, bench worker with usage counting`, limiter.usage, limiter.on),
    ...lookups.flatMap(lookupRows),
    ...admissionRows(`${partLabel}, bench worker`, limiter.on, far),
    ...documents.map((d) => ({
      case: `GET /v1/catalog, ${count(d.profiles)} profiles (${mib(d.bytes)} MiB)`,
      "TTFB (ms)": ms(d.ttfbMs),
      "MB/s": (d.bytesPerSecond / 1e6).toFixed(0),
      "workerd RSS before → peak → after (MiB)": `${mib(d.rssBefore)} → ${mib(d.rssPeak)} → ${mib(d.rssAfter)}`,
    })),
  ];
  // Server time per request at saturation: 1/rate, so differences of it add up per request.
  const extraMs = (a: RoundedLoad, b: RoundedLoad) => (1 / a.requestsPerSecond - 1 / b.requestsPerSecond) * 1000;
  const small = expectDefined(documents[0], "the smallest document measured");
  const large = expectDefined(documents.at(-1), "the largest document measured");
  const growth = large.rssPeak - large.rssBefore;
  return {
    title: "Serve",
    method:
      "The real worker (wrangler.toml) in local workerd under the real `wrangler dev` (its proxy worker included, for floor and figures alike), " +
      `loaded by autocannon (${CONNECTIONS} connections, after a warm-up; rounds of floor then figures, medians) from the bench process. ` +
      "Every request carries a live API key whose rate limit the operator API raised (as `npm run operator -- limits` does), " +
      "so the limiter runs on every request and admits them all. " +
      `Floor: a bare Hono worker answering "ok" (bench/workers/ok.ts) under the same harness. Parts come from a ${count(rateProfiles)}-profile release cut into ` +
      `${RATE_PART_BYTES / 1024} KiB parts, so a part request measures the edge path rather than bandwidth. ` +
      "The limiter's cost: a bench-only worker (bench/workers/limiter-switch.ts) serving the same route with and without `rateLimit()`; " +
      "usage counting's: the same worker with `countUsage()` added (the 1 s batched D1 writes in `waitUntil`), in the same rounds. " +
      "The same worker puts every SubjectGuard 50 or 150 ms of round trip away on request (bench/workers/far-guard.ts: half the delay each way of every RPC), " +
      "for a key with admission leases and a strict key (one SubjectGuard RPC per request), one key per case. " +
      "The whole document: a fresh connection per GET (median of the runs); around the first GET, the RSS of the workerd process running the worker, sampled every 10 ms. " +
      "Local workerd under wrangler dev grows by some KiB with every request even for the bare worker (its row gives the figure), and each part of the document is one local R2 read. " +
      "Profile lookups: many different profiles in turn (spread over the catalog, scrambled), by scope and by id, loaded in the same rounds as " +
      "GET /v1/releases/current on the same release; a lookup's cost is the manifest request's req/s ÷ its own in the same round (median over the rounds). " +
      "Targets: authenticated part ≥ 0.6× the bare worker's req/s; with usage counting ≥ 0.95× without; with leases, p50 with the SubjectGuard 150 ms away within 5 ms of local; a lookup ≤ 1.5× a manifest request's cost, the same at both sizes; " +
      "TTFB independent of size; workerd RSS growth while streaming < 10 MB.",
    columns: [
      "case",
      "req/s",
      "p50 (ms)",
      "p99 (ms)",
      "req/s ÷ bare worker",
      "req/s ÷ without usage",
      "cost ÷ manifest request",
      "TTFB (ms)",
      "MB/s",
      "workerd RSS before → peak → after (MiB)",
    ],
    rows,
    summary: [
      `serve authenticated part: ${Math.round(edge.part.requestsPerSecond)} req/s = ${times(edge.part.ratioToFloor)} bare worker (target ≥ 0.6×), ` +
        `p50 ${ms(edge.part.p50Ms)} ms (bare ${ms(edge.floor.p50Ms)} ms), ${signed(extraMs(edge.part, edge.floor))} ms server time per request`,
      `serve /v1/releases/current: ${Math.round(edge.manifest.requestsPerSecond)} req/s = ${times(edge.manifest.ratioToFloor)} bare worker, p50 ${ms(edge.manifest.p50Ms)} ms`,
      `serve rate limiter: ${ms(extraMs(limiter.on, limiter.off))} ms server time per request with leases, ${ms(extraMs(far["rpc-0"], limiter.off))} ms with one RPC per request ` +
        `(${Math.round(limiter.off.requestsPerSecond)} → ${Math.round(limiter.on.requestsPerSecond)} / ${Math.round(far["rpc-0"].requestsPerSecond)} req/s, ` +
        `p50 ${ms(limiter.off.p50Ms)} → ${ms(limiter.on.p50Ms)} / ${ms(far["rpc-0"].p50Ms)} ms)`,
      `serve usage counting: ${(limiter.usage.requestsPerSecond / limiter.on.requestsPerSecond).toFixed(3)}× the req/s without it (target ≥ 0.95×; ` +
        `${Math.round(limiter.on.requestsPerSecond)} → ${Math.round(limiter.usage.requestsPerSecond)} req/s, p50 ${ms(limiter.on.p50Ms)} → ${ms(limiter.usage.p50Ms)} ms)`,
      ...admissionSummary(limiter.on, far),
      `serve profile lookup (target ≤ 1.5× a manifest request): ${lookups.map(lookupSummary).join("; ")}`,
      `serve /v1/catalog TTFB: ${count(small.profiles)} profiles ${ms(small.ttfbMs)} ms, ${count(large.profiles)} profiles ${ms(large.ttfbMs)} ms (${times(large.ttfbMs / small.ttfbMs)}); ` +
        `${(small.bytesPerSecond / 1e6).toFixed(0)} / ${(large.bytesPerSecond / 1e6).toFixed(0)} MB/s`,
      `serve workerd RSS streaming ${count(large.profiles)} profiles once: ${mib(large.rssBefore)} → peak ${mib(large.rssPeak)} → ${mib(large.rssAfter)} MiB ` +
        `(growth ${(growth / 1e6).toFixed(1)} MB, target < 10 MB; ${count(small.profiles)} profiles: ${((small.rssPeak - small.rssBefore) / 1e6).toFixed(1)} MB; ` +
        `bare worker ${harnessGrowthPerRequest === undefined ? "n/a" : `+${(harnessGrowthPerRequest / 1024).toFixed(1)}`} KiB per request)`,
    ],
  };
}
