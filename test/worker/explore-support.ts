/**
 * Reading the explorer's pages in the worker tests: the count, the rows, the facet counts and the
 * links, as a reader of the HTML sees them, and the same query asked of GET /v1/profiles.
 */
import { expect } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { EXPLORE_FACETS } from "../../src/worker/explore/explore-query";
import type { DashboardClient } from "./dashboard-support";
import { visibleText } from "./dashboard-support";
import { api } from "./support/api";

export interface ExplorerView {
  count: number;
  ids: string[];
  facets: Record<string, Record<string, number>>;
  next: string | null;
  html: string;
}

const fromHtml = (text: string) => text.replaceAll("&amp;", "&").replaceAll("&quot;", '"');

export function readView(html: string): ExplorerView {
  const count = /<p class="count" id="match-count" role="status">(\d+) profiles? match/.exec(html);
  if (!count) throw new Error(`no count in page:\n${visibleText(html).slice(0, 1500)}`);
  const ids = [...html.matchAll(/<tr data-profile-id="(arp_[a-z0-9]+)">/g)].map(([, id]) =>
    expectDefined(id, "a profile id in the row"),
  );
  const facets: Record<string, Record<string, number>> = {};
  const choice =
    /<input type="checkbox" id="[^"]*" name="([^"]+)" value="([^"]*)"[^>]*\/?>\s*<span class="facet-value">[^<]*<\/span>\s*<span class="facet-count">(\d+)<\/span>/g;
  for (const [, name = "", value = "", n] of html.matchAll(choice)) {
    if (Number(n) === 0) continue; // a chosen value that no longer matches: the API leaves it out
    facets[name] = { ...facets[name], [fromHtml(value)]: Number(n) };
  }
  const next = /<a class="button secondary" href="([^"]+)" rel="next">/.exec(html);
  return {
    count: Number(count[1]),
    ids,
    facets,
    next: next ? fromHtml(expectDefined(next[1], "the next link's href")) : null,
    html,
  };
}

export async function explorerView(client: DashboardClient, path: string): Promise<ExplorerView> {
  const res = await client.get(path);
  const html = await res.text();
  expect(res.status, visibleText(html).slice(0, 800)).toBe(200);
  return readView(html);
}

interface ApiList {
  count: number;
  data: { agent_readiness_profile_id: string }[];
  next: string | null;
  facets: Record<string, Record<string, number>>;
}

/** The API's answer to a query string, with the explorer's facets asked. */
export async function apiAnswer(search: string): Promise<ApiList> {
  const params = new URLSearchParams(search);
  params.set("facets", EXPLORE_FACETS.map((facet) => facet.name).join(","));
  const res = await api(`/v1/profiles?${params}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json<ApiList>();
}

/**
 * The explorer's facet counts as the API gives them: a facet the query filters on is counted by
 * the same query without that filter (disjunctive facets), every other one by the query itself.
 */
export async function apiDisjunctiveFacets(search: string): Promise<ApiList["facets"]> {
  const facets = { ...(await apiAnswer(search)).facets };
  for (const name of new Set(new URLSearchParams(search).keys())) {
    if (!EXPLORE_FACETS.some((facet) => facet.name === name)) continue;
    const without = new URLSearchParams(search);
    without.delete(name);
    const counts = (await apiAnswer(without.toString())).facets[name] ?? {};
    facets[name] = counts;
  }
  return Object.fromEntries(Object.entries(facets).filter(([, counts]) => Object.keys(counts).length > 0));
}

/** Every page of the API's answer, following `next`. */
export async function apiIds(search: string): Promise<string[]> {
  const ids: string[] = [];
  for (let next: string | null = `/v1/profiles?${search}`; next; ) {
    const res = await api(next);
    const body = await res.json<ApiList>();
    ids.push(...body.data.map((p) => p.agent_readiness_profile_id));
    next = body.next;
  }
  return ids;
}
