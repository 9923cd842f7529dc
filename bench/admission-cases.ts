/**
 * Serve benchmark, issue 18: the same authenticated part request with admission leases and with one
 * SubjectGuard RPC per request (a strict key, as `npm run operator -- limits --strict` makes it), the
 * SubjectGuard local or 50 / 150 ms of round trip away. The delay is injected by the bench worker
 * (bench/workers/far-guard.ts, header `Bench-Guard-Delay-Ms`), never by production code. Each case
 * has its own key, so no lease of one case serves another.
 */
import { expectDefined } from "../src/common/expect";
import { provisionBenchKey, type BenchServer } from "./bench-servers";
import type { LoadOptions, RoundedLoad } from "./load";
import { median, perRound } from "./measure";
import { loadRow, ms, signed } from "./serve-rows";
import type { BenchRow } from "./types";

export const FAR_DELAYS_MS = [50, 150] as const;
const GUARD_DELAY_HEADER = "Bench-Guard-Delay-Ms";

type Mode = "leases" | "rpc";
export type AdmissionCase = `${Mode}-${0 | (typeof FAR_DELAYS_MS)[number]}`;
/** The local-SubjectGuard lease case is the limiter switch's "on" load: no case of its own. */
export type FarCase = Exclude<AdmissionCase, "leases-0">;

/** A fresh key per case (strict for "rpc"), made through `server`'s operator API, as request headers. */
export async function admissionKeys(server: BenchServer): Promise<Record<FarCase, Record<string, string>>> {
  const cases: [FarCase, Mode, number][] = [
    ...FAR_DELAYS_MS.map((delay): [FarCase, Mode, number] => [`leases-${delay}`, "leases", delay]),
    ...[0, ...FAR_DELAYS_MS].map((delay): [FarCase, Mode, number] => [`rpc-${delay}` as FarCase, "rpc", delay]),
  ];
  const headers = {} as Record<FarCase, Record<string, string>>;
  for (const [name, mode, delay] of cases) {
    headers[name] = {
      Authorization: `Bearer ${await provisionBenchKey(server, { strict: mode === "rpc" })}`,
      [GUARD_DELAY_HEADER]: String(delay),
    };
  }
  return headers;
}

/** One load per case, each checked to answer 200 first. */
export async function admissionLoads(
  url: string,
  keys: Record<FarCase, Record<string, string>>,
  load: (headers: Record<string, string>) => LoadOptions,
): Promise<Record<FarCase, LoadOptions>> {
  const loads = {} as Record<FarCase, LoadOptions>;
  for (const [name, headers] of Object.entries(keys) as [FarCase, Record<string, string>][]) {
    const response = await fetch(url, { headers });
    await response.body?.cancel();
    if (response.status !== 200) throw new Error(`admission case ${name}: GET ${url} answered ${response.status}`);
    loads[name] = load(headers);
  }
  return loads;
}

export function admissionRows(partLabel: string, local: RoundedLoad, far: Record<FarCase, RoundedLoad>): BenchRow[] {
  const row = loadRow;
  const where = (delay: number) => (delay === 0 ? "SubjectGuard local" : `SubjectGuard ${delay} ms away`);
  return [
    row(`${partLabel}, leases, ${where(0)}`, local),
    ...FAR_DELAYS_MS.map((delay) => row(`${partLabel}, leases, ${where(delay)}`, far[`leases-${delay}`])),
    ...[0, ...FAR_DELAYS_MS].map((delay) =>
      row(
        `${partLabel}, one SubjectGuard RPC per request (strict key), ${where(delay)}`,
        far[`rpc-${delay}` as FarCase],
      ),
    ),
  ];
}

/** Median over the rounds of (p50 150 ms away − p50 local) in the same round: the machine's load moves both alike. */
function pairedP50Difference([local, , far]: RoundedLoad[]): number {
  const [near, away] = [expectDefined(local, "the local load"), expectDefined(far, "the load 150 ms away")];
  return median(perRound(away.p50sMs, near.p50sMs, (p50Far, p50Local) => p50Far - p50Local));
}

export function admissionSummary(local: RoundedLoad, far: Record<FarCase, RoundedLoad>): string[] {
  const loads = (mode: Mode) =>
    [0, ...FAR_DELAYS_MS].map((delay) =>
      mode === "leases" && delay === 0 ? local : far[`${mode}-${delay}` as FarCase],
    );
  const series = (mode: Mode, pick: (load: RoundedLoad) => number) => loads(mode).map(pick);
  const line = (mode: Mode) => {
    const p50 = series(mode, (l) => l.p50Ms);
    const p99 = series(mode, (l) => l.p99Ms);
    const rates = series(mode, (l) => Math.round(l.requestsPerSecond));
    return (
      `p50 ${p50.map(ms).join(" / ")} ms (${signed(pairedP50Difference(loads(mode)))} ms at 150 ms, paired by round), ` +
      `p99 ${p99.map(ms).join(" / ")} ms, ${rates.join(" / ")} req/s`
    );
  };
  return [
    `serve far SubjectGuard (local / 50 / 150 ms away), leases: ${line("leases")} (target: p50 at 150 ms within +5 ms of local)`,
    `serve far SubjectGuard (local / 50 / 150 ms away), one RPC per request: ${line("rpc")}`,
  ];
}
