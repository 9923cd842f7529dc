/**
 * The profile-lookup part of the serve benchmark (issue 14): GET /v1/profiles/{product}/{funnel}
 * and GET /v1/profiles/{id} of many different profiles, loaded in the same rounds as the
 * manifest request GET /v1/releases/current, for each catalog size. A lookup's cost is the
 * manifest request's rate ÷ the lookup's in the same round (server time per request, relative),
 * the median over the rounds.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expectDefined } from "../src/common/expect";
import type { Manifest } from "../src/common/catalog/manifest";
import type { DevServer } from "../src/node/local/wrangler-dev";
import type { LoadOptions, RoundedLoad } from "./load";
import { median, perRound } from "./measure";
import { count, loadRow, ms, times } from "./serve-rows";
import type { BenchRow } from "./types";

/** How many different profiles each lookup load cycles through, spread over the whole catalog. */
const SAMPLED_PROFILES = 2000;

export interface LookupFigures {
  profiles: number;
  sampled: number;
  loads: Record<"manifest" | "scope" | "id" | "floor", RoundedLoad>;
}

type Rounds = (
  subjects: Record<"manifest" | "scope" | "id", LoadOptions>,
) => Promise<Record<"manifest" | "scope" | "id" | "floor", RoundedLoad>>;

export async function measureLookups(
  server: DevServer,
  release: { dir: string; manifest: Manifest },
  headers: Record<string, string>,
  load: (url: string, headers: Record<string, string>) => LoadOptions,
  rounds: Rounds,
): Promise<LookupFigures> {
  const sample = sampledProfiles(release.dir);
  const scope = sample.map(([product, funnel]) => `/v1/profiles/${product}/${funnel}`);
  const id = sample.map(([, , profileId]) => `/v1/profiles/${profileId}`);
  for (const url of [scope[0], id[0]].map((first) => expectDefined(first, "a sampled profile's URL"))) {
    const response = await fetch(`${server.url}${url}`, { headers });
    await response.body?.cancel();
    if (response.status !== 200 || response.headers.get("Catalog-Release") !== release.manifest.release_id) {
      throw new Error(
        `GET ${url} answered ${response.status} from ${response.headers.get("Catalog-Release")}, expected 200 from ${release.manifest.release_id}`,
      );
    }
  }
  const loads = await rounds({
    manifest: load(`${server.url}/v1/releases/current`, headers),
    scope: { ...load(`${server.url}${scope[0]}`, headers), paths: scope },
    id: { ...load(`${server.url}${id[0]}`, headers), paths: id },
  });
  return { profiles: release.manifest.profile_count, sampled: sample.length, loads };
}

/** A lookup's cost relative to the manifest request's (server time per request at saturation, 1/rate), round by round. */
const costRatio = ({ loads }: LookupFigures, kind: "scope" | "id") =>
  median(perRound(loads.manifest.roundRates, loads[kind].roundRates, (manifest, lookup) => manifest / lookup));

export function lookupRows(figures: LookupFigures): BenchRow[] {
  const size = `${count(figures.profiles)} profiles`;
  return [
    loadRow(`GET /v1/releases/current, ${size}`, figures.loads.manifest),
    {
      ...loadRow(
        `GET /v1/profiles/{product}/{funnel}, ${size} (${count(figures.sampled)} different)`,
        figures.loads.scope,
      ),
      "cost ÷ manifest request": times(costRatio(figures, "scope")),
    },
    {
      ...loadRow(`GET /v1/profiles/{id}, ${size} (${count(figures.sampled)} different)`, figures.loads.id),
      "cost ÷ manifest request": times(costRatio(figures, "id")),
    },
  ];
}

export function lookupSummary(figures: LookupFigures): string {
  const { scope, id } = figures.loads;
  return (
    `${count(figures.profiles)} profiles ${Math.round(scope.requestsPerSecond)} req/s, p50 ${ms(scope.p50Ms)} ms = ${times(costRatio(figures, "scope"))} ` +
    `(by id ${times(costRatio(figures, "id"))}, p50 ${ms(id.p50Ms)} ms; manifest p50 ${ms(figures.loads.manifest.p50Ms)} ms)`
  );
}

/**
 * [product, funnel, id] of profiles spread evenly over the catalog, in a scrambled order so that
 * consecutive requests land on different index pages and parts. Read from the built release's
 * scope index (its leaves: every segment up to its directory page).
 */
export function sampledProfiles(releaseDir: string): [string, string, string][] {
  const manifest = JSON.parse(readFileSync(path.join(releaseDir, "manifest.json"), "utf8")) as Manifest;
  const scope = expectDefined(
    manifest.index?.find((index) => index.name === "scope"),
    "the scope index",
  );
  const dir = path.join(releaseDir, "index", "scope");
  if (readdirSync(dir).length !== scope.segments.length)
    throw new Error(`${dir} does not hold the ${scope.segments.length} segments of the manifest`);
  const all = scope.segments.flatMap((segment) =>
    readFileSync(path.join(dir, String(segment.index)))
      .toString("latin1", 0, segment.directory_offset)
      .split("\n")
      .filter(Boolean)
      .map((line) => line.split(" ", 3) as [string, string, string]),
  );
  const step = Math.max(1, Math.floor(all.length / SAMPLED_PROFILES));
  const sample = all.filter((_, i) => i % step === 0).slice(0, SAMPLED_PROFILES);
  // A fixed permutation (multiplying by a number coprime with the length), so runs compare.
  let stride = 7919;
  while (gcd(stride, sample.length) !== 1) stride++;
  return sample.map((_, i) => expectDefined(sample[(i * stride) % sample.length], "a sampled profile"));
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
