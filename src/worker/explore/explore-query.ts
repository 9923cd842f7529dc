/**
 * The explorer's URL is the query API's query string (GET /v1/profiles), so a view can be bookmarked,
 * shared and replayed against the API: the same parameters, checked by the same schema
 * (ProfileQueryParams) and run by the same engine. Two differences, both for a plain HTML form:
 * a filter may come as repeated fields (`grade=A&grade=B`, what checkboxes send) as well as one
 * comma-separated list, and an empty `q` (an empty text box) means no text filter. The page asks
 * for its own facets, so `facets` is not one of its parameters.
 */
import { VALUE_FIELDS } from "../../common/catalog/query-fields";
import { STAGE_LABELS, STAGES } from "../../common/catalog/schema";
import { ProfileQueryParams, type ProfileQuery, readProfileQuery } from "../catalog/query-params";
import { strictQuery } from "../http/strict-query";
import type { ParameterError } from "../http/query-problem";

/** The facets the page shows as filters, in this order, with their labels. */
export const EXPLORE_FACETS: readonly { name: string; label: string; hint?: string }[] = [
  { name: "grade", label: "Grade" },
  { name: "overall_outcome", label: "Overall outcome" },
  ...STAGES.map((stage) => ({ name: `stage.${stage}`, label: `Stage: ${STAGE_LABELS[stage]}` })),
  {
    name: "primary_stage",
    label: "Primary stage",
    hint: "The stage of the headline finding: the first stage not ready, or evaluate when every stage is ready.",
  },
  { name: "funnel", label: "Funnel" },
  { name: "freshness", label: "Freshness" },
];

const LIST_PARAMS = new Set(VALUE_FIELDS.map((field) => field.name));
// Rebuilt with strictQuery, so an unknown parameter's message names the page's own parameters.
const PageParams = strictQuery(ProfileQueryParams.omit({ facets: true }).shape);

export type ExploreQuery =
  | { ok: true; query: ProfileQuery; params: URLSearchParams }
  | { ok: false; errors: ParameterError[] };

/**
 * The query of an explorer URL, or every problem with it. `params` is the canonical query string of
 * the view (lists joined by commas, no cursor): what the API takes and what links carry on.
 */
export function exploreQueryOf(url: URL): ExploreQuery {
  const raw: Record<string, string | string[]> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name).filter((value) => !(name === "q" && value.trim() === ""));
    if (values.length === 0) continue;
    // A list may come as repeated fields; any other parameter given twice is refused by the schema.
    const [only] = values;
    raw[name] = LIST_PARAMS.has(name) ? values.join(",") : values.length === 1 && only !== undefined ? only : values;
  }
  const read = readProfileQuery(raw, PageParams, { facets: EXPLORE_FACETS.map((facet) => facet.name) });
  if (!read.ok) return read;
  const { query } = read;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(raw)) if (name !== "cursor") params.set(name, String(value));
  return { ok: true, query, params };
}

/** The explorer's URL for `params` changed by `change` (a value of null removes the parameter). */
export function viewHref(base: string, params: URLSearchParams, change: Record<string, string | null> = {}): string {
  const next = new URLSearchParams(params);
  for (const [name, value] of Object.entries(change)) {
    if (value === null) next.delete(name);
    else next.set(name, value);
  }
  const search = next.toString().replaceAll("%2C", ",");
  return search ? `${base}?${search}` : base;
}
