/**
 * The facet counts kept at publish (docs/performance.md, "Queries"): for the whole release and for
 * every value of every facetable filter, how many profiles have each value of each facet field.
 * A query with at most one such filter reads its facets from these rows, in time that does not
 * grow with the catalog. Pure: rows in, counts out.
 */
import { byCountThenValue, FACET_FIELDS, facetValuesOf, type QueryRow } from "../../common/catalog/query-fields";

export interface FacetCount {
  /** The filter the counts are under: "" (and filter_value "") for the whole release. */
  filter: string;
  filter_value: string;
  facet: string;
  value: string;
  count: number;
}

/** Filters whose values' facet counts are kept (`keptAsFilter`: not product, whose matches are few enough to count). */
const KEPT_FILTERS = FACET_FIELDS.flatMap((field, index) => (field.keptAsFilter ? [{ name: field.name, index }] : []));

/** Per facet field (FACET_FIELDS order), each value's count. */
type Counts = Map<string, number>[];
const noCounts = (): Counts => FACET_FIELDS.map(() => new Map<string, number>());

export class FacetCounter {
  /**
   * The whole release's counts, and per kept filter (KEPT_FILTERS order) and value its counts.
   * Arrays by field index, not maps by name: `add` runs for every profile, 16 facets under each of
   * 16 filters, and was most of the load's Node-side time keyed by strings.
   */
  readonly #whole = noCounts();
  readonly #kept = KEPT_FILTERS.map(() => new Map<string, Counts>());

  add(row: QueryRow) {
    const values = FACET_FIELDS.map((field) => facetValuesOf(row, field));
    addAll(this.#whole, values);
    KEPT_FILTERS.forEach(({ index }, kept) => {
      const under = this.#kept[kept] as Map<string, Counts>;
      const filterValues = values[index] as string[];
      filterValues.forEach((filterValue, at) => {
        if (filterValues.indexOf(filterValue) !== at) return; // a value twice in a row counts once
        const counts = under.get(filterValue) ?? noCounts();
        if (!under.has(filterValue)) under.set(filterValue, counts);
        addAll(counts, values);
      });
    });
  }

  /** Every kept count; a top facet (product, funnel) only its largest values, ties by key. */
  *counts(): Generator<FacetCount> {
    yield* countsUnder("", "", this.#whole);
    for (const [kept, { name }] of KEPT_FILTERS.entries()) {
      for (const [filterValue, counts] of this.#kept[kept] as Map<string, Counts>)
        yield* countsUnder(name, filterValue, counts);
    }
  }
}

function addAll(counts: Counts, values: string[][]) {
  values.forEach((facetValues, facet) => {
    const byValue = counts[facet] as Map<string, number>;
    for (const value of facetValues) byValue.set(value, (byValue.get(value) ?? 0) + 1);
  });
}

function* countsUnder(filter: string, filterValue: string, counts: Counts): Generator<FacetCount> {
  for (const [index, byValue] of counts.entries()) {
    const field = FACET_FIELDS[index] as (typeof FACET_FIELDS)[number];
    const facet = field.name;
    const entries = [...byValue];
    const kept = field.kind.top ? entries.sort(byCountThenValue).slice(0, field.kind.top) : entries;
    for (const [value, count] of kept) yield { filter, filter_value: filterValue, facet, value, count };
  }
}
