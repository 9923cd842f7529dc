/**
 * A watch's `query`: the filter part of a GET /v1/profiles query string, checked by that route's
 * own schema (ProfileQueryParams) without its paging and presentation parameters, so a watch
 * refuses exactly what the route refuses, with the same entries. Parsed as the route's query
 * string is: a parameter given twice is refused, lists are comma-separated.
 */
import type { QueryFilter } from "../../common/catalog/query-filter";
import { filterOf, ProfileQueryParams, readProfileQuery } from "../catalog/query-params";
import type { ParameterError } from "../http/query-problem";
import { strictQuery } from "../http/strict-query";

// Rebuilt with strictQuery, so an unknown parameter's message names the parameters a watch takes.
const WatchQueryParams = strictQuery(
  ProfileQueryParams.omit({ sort: true, limit: true, facets: true, cursor: true }).shape,
);

export type WatchQuery = { ok: true; filter: QueryFilter; canonical: string } | { ok: false; errors: ParameterError[] };

export function watchQueryOf(text: string): WatchQuery {
  const params = new URLSearchParams(text.startsWith("?") ? text.slice(1) : text);
  const raw: Record<string, string | string[]> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    raw[name] = values.length === 1 ? (values[0] as string) : values;
  }
  const read = readProfileQuery(raw, WatchQueryParams, { sort: "catalog", limit: 1 });
  if (!read.ok) return read;
  return { ok: true, filter: filterOf(read.query), canonical: params.toString().replaceAll("%2C", ",") };
}
