/**
 * The facet counts kept at publish (docs/performance.md, "Queries"): for the whole release and for
 * every value of every facetable filter, how many profiles have each value of each facet field.
 * A query with at most one such filter reads its facets from these rows, in time that does not
 * grow with the catalog. Pure: rows in, counts out.
 */
import {
  byCountThenValue,
  FACET_FIELDS,
  facetValuesOf,
  isTopOnlyFacet,
  TOP_FACET_VALUES,
  type QueryRow,
} from "../../common/catalog/query-fields";

export interface FacetCount {
  /** The filter the counts are under: "" (and filter_value "") for the whole release. */
  filter: string;
  filter_value: string;
  facet: string;
  value: string;
  count: number;
}

/** Filters whose values' facet counts are kept; `product` is selective, its matches are few enough to count. */
const KEPT_FILTERS = FACET_FIELDS.filter((field) => field.name !== "product").map((field) => field.name);

export class FacetCounter {
  /** `${filter}\u0000${filterValue}` → facet → value → count. */
  readonly #counts = new Map<string, Map<string, Map<string, number>>>();

  add(row: QueryRow) {
    const values = new Map(FACET_FIELDS.map((field) => [field.name, facetValuesOf(row, field.name)]));
    this.#addUnder("", "", values);
    for (const filter of KEPT_FILTERS) {
      for (const filterValue of new Set(values.get(filter))) this.#addUnder(filter, filterValue, values);
    }
  }

  #addUnder(filter: string, filterValue: string, values: Map<string, string[]>) {
    const key = `${filter}\u0000${filterValue}`;
    const facets = getOrAdd(this.#counts, key, () => new Map<string, Map<string, number>>());
    for (const [facet, facetValues] of values) {
      const counts = getOrAdd(facets, facet, () => new Map<string, number>());
      for (const value of facetValues) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
  }

  /** Every kept count; product and funnel only their TOP_FACET_VALUES largest values, ties by key. */
  *counts(): Generator<FacetCount> {
    for (const [key, facets] of this.#counts) {
      const [filter, filterValue] = key.split("\u0000") as [string, string];
      for (const [facet, counts] of facets) {
        const entries = [...counts];
        const kept = isTopOnlyFacet(facet) ? entries.sort(byCountThenValue).slice(0, TOP_FACET_VALUES) : entries;
        for (const [value, count] of kept) yield { filter, filter_value: filterValue, facet, value, count };
      }
    }
  }
}

function getOrAdd<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  const found = map.get(key);
  if (found !== undefined) return found;
  const made = make();
  map.set(key, made);
  return made;
}
