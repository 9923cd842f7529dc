/**
 * An independent implementation of the profile query contract (docs/contract.md, "Querying the
 * catalog"), over a test release's document parsed in plain TypeScript: no SQL, no query tables, no
 * code of the worker's. The query tests compare every answer with it.
 */
import type { Profile } from "../../../src/common/catalog/schema";
import { expectDefined } from "../../../src/common/expect";
import { documentProfiles } from "./document-profiles";
import type { TestRelease } from "./releases";

export interface OracleProfile {
  profile: Profile;
  /** The profile's bytes in the document, as text. */
  text: string;
}

export function oracleProfiles(release: TestRelease): OracleProfile[] {
  const decoder = new TextDecoder();
  return documentProfiles(release).map((located) => {
    const text = decoder.decode(located.bytes);
    return { profile: JSON.parse(text) as Profile, text };
  });
}

const GRADE_ORDER = ["A", "B+", "B", "C+", "C", "D", "F"];
const tokens = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The values a profile has for a filter or facet name (several for `signal`). */
export function valuesOf(p: Profile, name: string): string[] {
  if (name.startsWith("stage.")) return p.stages.filter((s) => s.stage === name.slice(6)).map((s) => s.public_state);
  const one: Record<string, () => string> = {
    product: () => p.scope.product.key,
    funnel: () => p.scope.funnel.key,
    entity: () => p.entity_id,
    grade: () => p.grade,
    overall_outcome: () => p.overall_outcome,
    public_state: () => p.public_state,
    primary_stage: () => p.primary_finding.stage,
    coverage_status: () => p.coverage.status,
    freshness: () => p.freshness,
    lifecycle: () => p.lifecycle,
    visibility: () => p.publication.visibility,
  };
  if (name === "signal") return [...new Set(p.stages.map((s) => s.primary_finding.signal_code))];
  return [expectDefined(one[name], `a filter or facet named ${name}`)()];
}

function matchesText(p: Profile, q: string): boolean {
  const words = tokens(q);
  const haystack = tokens(
    [
      p.scope.product.name,
      p.scope.product.key,
      p.scope.funnel.name,
      p.scope.funnel.key,
      ...p.stages.flatMap((s) => [s.primary_finding.finding, s.primary_finding.condition]),
    ].join(" "),
  );
  return words.every((word, i) =>
    i === words.length - 1 ? haystack.some((t) => t.startsWith(word)) : haystack.includes(word),
  );
}

/** The query as a URLSearchParams-like record: filters (comma lists), q, tested_*, sort. */
export function oracleQuery(all: OracleProfile[], params: Record<string, string>): OracleProfile[] {
  const matches = all.filter(({ profile: p }) =>
    Object.entries(params).every(([name, value]) => {
      if (["sort", "limit", "facets", "cursor"].includes(name)) return true;
      if (name === "q") return matchesText(p, value);
      if (name === "tested_after") return Date.parse(p.last_tested_at) >= Date.parse(value);
      if (name === "tested_before") return Date.parse(p.last_tested_at) < Date.parse(value);
      const wanted = value.split(",");
      return valuesOf(p, name).some((v) => wanted.includes(v));
    }),
  );
  const compare = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const catalog = (a: Profile, b: Profile) =>
    compare(a.scope.product.key, b.scope.product.key) || compare(a.scope.funnel.key, b.scope.funnel.key);
  const rank = (p: Profile) => GRADE_ORDER.indexOf(p.grade);
  const tested = (p: Profile) => Date.parse(p.last_tested_at);
  const keys: Record<string, (a: Profile, b: Profile) => number> = {
    catalog: () => 0,
    grade: (a, b) => rank(a) - rank(b),
    "-grade": (a, b) => rank(b) - rank(a),
    last_tested_at: (a, b) => tested(a) - tested(b),
    "-last_tested_at": (a, b) => tested(b) - tested(a),
  };
  const by = expectDefined(keys[params.sort ?? "catalog"], `a sort named ${params.sort}`);
  return matches.sort((a, b) => by(a.profile, b.profile) || catalog(a.profile, b.profile));
}

/** Facet counts over every match: per value, the number of matches that have it; largest first, ties by value. */
export function oracleFacets(matches: OracleProfile[], facets: string[]): Record<string, Record<string, number>> {
  return Object.fromEntries(
    facets.map((facet) => {
      const counts = new Map<string, number>();
      for (const { profile } of matches)
        for (const value of valuesOf(profile, facet)) counts.set(value, (counts.get(value) ?? 0) + 1);
      const sorted = [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
      return [facet, Object.fromEntries(facet === "product" || facet === "funnel" ? sorted.slice(0, 100) : sorted)];
    }),
  );
}
