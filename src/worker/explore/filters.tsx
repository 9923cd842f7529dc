/**
 * The filters: one GET form (so it works without script, and every choice is a URL the back button
 * returns to) with a fieldset of checkboxes per facet, the text box for `q` and the sort, in a
 * <details> panel: folded on a phone, so the results come first; always open on a wide screen
 * (CSS). Each value's count is over the current matches with the facet's own choice left out
 * (disjunctive: values of one facet are "any of", so a second one can be ticked). The explorer's
 * script submits the form on each change.
 */
import { fieldNamed, SORTS, type Sort } from "../../common/catalog/query-fields";
import type { ProfileQuery } from "../catalog/query-params";
import { EXPLORE_FACETS } from "./explore-query";
import { EXPLORE_PATHS } from "./paths";

export const SORT_LABELS: Record<Sort, string> = {
  catalog: "Catalog order",
  grade: "Grade, best first",
  "-grade": "Grade, worst first",
  last_tested_at: "Tested, oldest first",
  "-last_tested_at": "Tested, newest first",
};

/** The values to offer: every counted one, and every chosen one (at 0 if nothing matches it now). */
export function facetValues(name: string, counts: Record<string, number>, chosen: readonly string[]) {
  const values = [...Object.keys(counts), ...chosen.filter((value) => !(value in counts))];
  const field = fieldNamed(name);
  const order = field.kind.order(field.allowed);
  if (order) values.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return values.map((value) => ({ value, count: counts[value] ?? 0, checked: chosen.includes(value) }));
}

const idOf = (name: string, value: string) => `f-${name}-${value}`.replace(/[^A-Za-z0-9_-]/g, "-");

/** Parameters of the view that the form has no field for (e.g. `product`, `tested_after`): kept as they are. */
const FORM_FIELDS = new Set(["q", "sort", "limit", ...EXPLORE_FACETS.map((facet) => facet.name)]);

export function Filters(props: {
  query: ProfileQuery;
  params: URLSearchParams;
  facets: Record<string, Record<string, number>>;
}) {
  const { query } = props;
  const kept = [...props.params].filter(([name]) => !FORM_FIELDS.has(name));
  const chosen = [...query.filters.values()].reduce((sum, values) => sum + values.length, 0);
  return (
    <details class="filter-panel">
      <summary>
        <h2 id="filters-heading">Filters</h2>
        <span class="muted">{chosen ? ` ${chosen} chosen` : " none chosen"}</span>
      </summary>
      <FilterForm {...props} kept={kept} />
    </details>
  );
}

function FilterForm(props: {
  query: ProfileQuery;
  params: URLSearchParams;
  facets: Record<string, Record<string, number>>;
  kept: [string, string][];
}) {
  const { query, kept } = props;
  return (
    <form
      class="filters"
      method="get"
      action={EXPLORE_PATHS.home}
      data-explore-form=""
      aria-labelledby="filters-heading"
    >
      <label for="q">Search</label>
      <input id="q" name="q" type="search" value={query.q ?? ""} maxlength={200} aria-describedby="q-hint" />
      <p id="q-hint" class="hint">
        Every word, in product or funnel names and keys or in a stage's finding.
      </p>
      <label for="sort">Sort by</label>
      <select id="sort" name="sort">
        {SORTS.map((sort) => (
          <option value={sort} selected={sort === query.sort}>
            {SORT_LABELS[sort]}
          </option>
        ))}
      </select>
      {props.params.has("limit") ? <input type="hidden" name="limit" value={String(query.limit)} /> : null}
      {kept.map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      {kept.length ? (
        <p class="hint">
          Also filtered by {kept.map(([name, value]) => `${name} = ${value}`).join("; ")}.{" "}
          <a href={EXPLORE_PATHS.home}>Start again</a>
        </p>
      ) : null}
      {EXPLORE_FACETS.map((facet) => {
        const values = facetValues(facet.name, props.facets[facet.name] ?? {}, query.filters.get(facet.name) ?? []);
        return (
          <fieldset>
            <legend>{facet.label}</legend>
            {facet.hint ? <p class="hint">{facet.hint}</p> : null}
            {values.length === 0 ? <p class="hint">No value among these matches.</p> : null}
            {values.map((v) => (
              <label class="choice" for={idOf(facet.name, v.value)}>
                <input
                  type="checkbox"
                  id={idOf(facet.name, v.value)}
                  name={facet.name}
                  value={v.value}
                  checked={v.checked}
                />
                <span class="facet-value">{v.value}</span>
                <span class="facet-count">{String(v.count)}</span>
              </label>
            ))}
          </fieldset>
        );
      })}
      <div class="actions">
        <button class="primary" type="submit">
          Apply filters
        </button>
        <a class="button secondary" href={EXPLORE_PATHS.home}>
          Clear all
        </a>
      </div>
    </form>
  );
}
