/**
 * HTTP load for the serve benchmark: autocannon (in this process) against one URL for a fixed time,
 * after an unmeasured warm-up. Latency percentiles are computed from every response's own time
 * (autocannon's histogram keeps whole milliseconds only, too coarse for a local worker).
 * Any non-2xx answer fails the measurement: a rate that includes 429s or 401s would measure the
 * refusal path, not the route. Connection errors (a restart of the worker) make it start over.
 */
import type { EventEmitter } from "node:events";
import autocannon from "autocannon";
import { expectDefined } from "../src/common/expect";
import { median, perRound } from "./measure";

/**
 * How long a load runs: `seconds`, or until `requests` responses came back (the smoke plan's loads:
 * a few responses to report, however slow a loaded machine answers).
 */
export type LoadLength = { seconds: number } | { requests: number };

export interface LoadOptions {
  url: string;
  /** Paths to request in turn instead of `url`'s (same origin), e.g. many different profiles. */
  paths?: string[];
  headers?: Record<string, string>;
  /** GET unless said (e.g. POST with `body`, as an MCP call). */
  method?: "GET" | "POST";
  body?: string;
  length: LoadLength;
  warmupSeconds: number;
  connections: number;
}

/** A load of `url` (or of `paths` in turn) with the same credential, connections and length each time. */
export const loaderOf =
  (common: Pick<LoadOptions, "headers" | "connections" | "length" | "warmupSeconds">) =>
  (url: string, paths?: string[]): LoadOptions => ({ url, ...common, ...(paths ? { paths } : {}) });

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Response body bytes per second. */
  bytesPerSecond: number;
  requests: number;
}

/** `wrangler dev` rebuilds and restarts the worker when a source file changes; a load that hit a restart is measured again. */
const ATTEMPTS = 3;

export async function measureLoad(options: LoadOptions): Promise<LoadResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measureOnce(options);
    } catch (error) {
      if (!(error instanceof ConnectionErrors) || attempt === ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    }
  }
}

class ConnectionErrors extends Error {}

const SAMPLE_MS = 100;

async function measureOnce(options: LoadOptions): Promise<LoadResult> {
  if (options.warmupSeconds > 0) await run(options, { seconds: options.warmupSeconds }, () => {});
  const times: number[] = [];
  const result = await run(options, options.length, (ms) => times.push(ms));
  times.sort((a, b) => a - b);
  return {
    requestsPerSecond: times.length / result.duration,
    p50Ms: median(times),
    p99Ms: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] ?? Number.NaN,
    bytesPerSecond: result.throughput.total / result.duration,
    requests: times.length,
  };
}

async function run(options: LoadOptions, length: LoadLength, onTime: (ms: number) => void): Promise<autocannon.Result> {
  const statuses = new Map<number, number>();
  let instance: autocannon.Instance | undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    let next = 0;
    const paths = options.paths;
    const requests = paths && [
      { setupRequest: (request: autocannon.Request) => ({ ...request, path: paths[next++ % paths.length] }) },
    ];
    instance = autocannon(
      {
        url: options.url,
        headers: options.headers,
        ...(options.method && { method: options.method }),
        ...(options.body !== undefined && { body: options.body }),
        connections: options.connections,
        ...("requests" in length ? { amount: length.requests } : { duration: length.seconds }),
        // autocannon stops at its first sample after the end, once a second by default: a 1.5 s
        // load then ran 2 s. Its per-sample figures are not used here.
        sampleInt: SAMPLE_MS,
        ...(requests && { requests }),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  // autocannon 9 emits (client, statusCode, resBytes, responseTime in fractional ms); its types lag behind.
  (instance as unknown as EventEmitter).on(
    "response",
    (_client: unknown, status: number, _bytes: number, ms: number) => {
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status >= 200 && status < 300) onTime(ms);
    },
  );
  const result = await done;
  const refused = [...statuses].filter(([status]) => status < 200 || status >= 300);
  if (refused.length) {
    throw new Error(
      `load on ${options.url} was not all 2xx: ${refused.map(([status, n]) => `${n}× ${status}`).join(", ")}`,
    );
  }
  if (result.errors > 0)
    throw new ConnectionErrors(
      `load on ${options.url}: ${result.errors} connection errors (${result.timeouts} timeouts)`,
    );
  return result;
}

export interface RoundedLoad {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Median over the rounds of this figure's req/s ÷ the floor's req/s in the same round. */
  ratioToFloor: number;
  /** Each round's p50, to compare two figures round by round (paired, like the ratios). */
  p50sMs: number[];
  /** Measured requests, all rounds together. */
  requests: number;
  /** req/s of each round, in order (for ratios between two figures of the same round). */
  roundRates: number[];
}

/**
 * Loads the floor and then each subject, `rounds` times over, and keeps medians: a burst of other
 * work on the machine lands on the floor and the figures of the same round alike.
 */
export async function loadRounds<K extends string>(
  floor: LoadOptions,
  subjects: Record<K, LoadOptions>,
  rounds: number,
  log: (line: string) => void,
): Promise<Record<K | "floor", RoundedLoad>> {
  const names = Object.keys(subjects) as K[];
  const runs = new Map<K | "floor", LoadResult[]>([
    ["floor", []],
    ...names.map((name) => [name, []] as [K, LoadResult[]]),
  ]);
  for (let round = 0; round < rounds; round++) {
    for (const name of ["floor" as const, ...names]) {
      log(`serve: load on ${name} (round ${round + 1}/${rounds})`);
      expectDefined(runs.get(name), `the runs of ${name}`).push(
        await measureLoad(name === "floor" ? floor : subjects[name]),
      );
    }
  }
  const floors = expectDefined(runs.get("floor"), "the runs of the floor");
  const figures = {} as Record<K | "floor", RoundedLoad>;
  for (const [name, results] of runs) {
    figures[name] = {
      requestsPerSecond: median(results.map((r) => r.requestsPerSecond)),
      p50Ms: median(results.map((r) => r.p50Ms)),
      p99Ms: median(results.map((r) => r.p99Ms)),
      ratioToFloor: median(perRound(results, floors, (r, f) => r.requestsPerSecond / f.requestsPerSecond)),
      p50sMs: results.map((r) => r.p50Ms),
      requests: results.reduce((sum, r) => sum + r.requests, 0),
      roundRates: results.map((r) => r.requestsPerSecond),
    };
  }
  return figures;
}
