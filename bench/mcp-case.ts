/**
 * The MCP cases of the query benchmark (issues 30 and 39): a `search_profiles` call through
 * `POST /mcp` against the same query as `GET /v1/profiles`, and a `search` call (the connectors'
 * tool) against the same full-text query, each pair loaded in the same rounds on the same release.
 * A figure is the MCP call's p50 ÷ the REST request's p50 in the same round (median over the
 * rounds). Target: ≤ 1.5×.
 */
import type { LoadOptions, RoundedLoad } from "./load";
import { median } from "./measure";
import { count, loadRow, ms, times } from "./serve-rows";
import type { BenchRow } from "./types";

export const MCP_TARGET_RATIO = 1.5;

/** The query, as the route's query string and as the tool's arguments. */
export const REST_SEARCH = "/v1/profiles?stage.pay=ready&sort=grade&limit=20&facets=grade";
const SEARCH_ARGUMENTS = { "stage.pay": ["ready"], sort: "grade", limit: 20, facets: ["grade"] };

const toolCall = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
const MCP_BODY = toolCall("search_profiles", SEARCH_ARGUMENTS);

/** The `search` tool's query (one word of the catalog) as the route's full-text query. */
export const restTextSearch = (word: string) => `/v1/profiles?q=${encodeURIComponent(word)}`;
const MCP_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

/** The load of an MCP call: `base` (URL, credential, duration) as a POST of the tool call (search_profiles by default). */
export const mcpLoad = (base: LoadOptions, body = MCP_BODY): LoadOptions => ({
  ...base,
  url: `${new URL(base.url).origin}/mcp`,
  method: "POST",
  body,
  headers: { ...base.headers, ...MCP_HEADERS },
});

/** The load of a `search` call for `word`. */
export const searchToolLoad = (base: LoadOptions, word: string) => mcpLoad(base, toolCall("search", { query: word }));

/** One call, checked: the tool answers the same profiles and count as the route (else the bench measures a failure). */
export async function expectSameAnswer(origin: string, headers: Record<string, string>): Promise<void> {
  const rest = (await (await fetch(`${origin}${REST_SEARCH}`, { headers })).json()) as {
    count: number;
    data: { agent_readiness_profile_id: string }[];
  };
  const response = await fetch(`${origin}/mcp`, {
    method: "POST",
    headers: { ...headers, ...MCP_HEADERS },
    body: MCP_BODY,
  });
  const answer = (await response.json()) as {
    result?: {
      isError?: boolean;
      structuredContent?: { count: number; data: { agent_readiness_profile_id: string }[] };
    };
  };
  const found = answer.result?.structuredContent;
  const ids = (list: { agent_readiness_profile_id: string }[]) => list.map((p) => p.agent_readiness_profile_id).join();
  if (response.status !== 200 || answer.result?.isError || !found)
    throw new Error(`POST /mcp search_profiles answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
  if (found.count !== rest.count || ids(found.data) !== ids(rest.data))
    throw new Error(`search_profiles and GET ${REST_SEARCH} disagree (count ${found.count} vs ${rest.count})`);
}

export interface McpFigures {
  /** The tool and the REST request it is measured against. */
  tool: string;
  restQuery: string;
  profiles: number;
  rest: RoundedLoad;
  mcp: RoundedLoad;
  /** Median over the rounds of the MCP call's p50 ÷ the REST request's p50. */
  ratio: number;
}

export function mcpFigures(
  pair: { tool: string; restQuery: string },
  profiles: number,
  rest: RoundedLoad,
  mcp: RoundedLoad,
): McpFigures {
  const ratio = median(mcp.p50sMs.map((p50, round) => p50 / (rest.p50sMs[round] ?? Number.NaN)));
  return { ...pair, profiles, rest, mcp, ratio };
}

export const mcpSummary = (f: McpFigures) =>
  `mcp ${f.tool} ${count(f.profiles)} profiles: p50 ${ms(f.mcp.p50Ms)} ms = ${times(f.ratio)} GET ${f.restQuery} ` +
  `(${ms(f.rest.p50Ms)} ms; target ≤ ${MCP_TARGET_RATIO}×)`;

export function mcpRows(f: McpFigures): BenchRow[] {
  return [
    {
      ...loadRow(`GET ${f.restQuery}, ${count(f.profiles)} profiles`, f.rest),
      "p50 ÷ lookup": "",
      "p50 ÷ REST": "1.00×",
    },
    {
      ...loadRow(`POST /mcp ${f.tool} (same query), ${count(f.profiles)} profiles`, f.mcp),
      "p50 ÷ lookup": "",
      "p50 ÷ REST": times(f.ratio),
    },
  ];
}
