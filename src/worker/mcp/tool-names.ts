/**
 * The names of the catalog's MCP tools, in the order docs/mcp.md's table gives them: the one list
 * the server registers from (read-tool.ts takes only these) and the tests compare `tools/list` to.
 * Free of worker types, so the e2e tests in Node import it too.
 */
export const TOOL_NAMES = [
  "describe_catalog",
  "search_profiles",
  "get_profile",
  "compare_profiles",
  "list_changes",
  "profile_history",
  "compare_releases",
  "search",
  "fetch",
] as const;

export type ToolName = (typeof TOOL_NAMES)[number];
