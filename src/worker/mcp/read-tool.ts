/**
 * Every tool of the catalog registered the one way hosts accept (docs/mcp.md, "What hosts
 * require"): a title, the read-only annotations (MCP 2025-11-25 "Tools" § ToolAnnotations: the
 * catalog changes nothing, answers the same for the same arguments and reaches no other system),
 * an output schema, and a name of at most 64 characters. A tool that lacks one fails to register,
 * so it cannot ship without it. A tool with a `view` links its MCP App (SEP-1865) the library's
 * way, `registerAppTool`: `_meta.ui.resourceUri` (and the older `ui/resourceUri` key it adds).
 */
import { registerAppTool } from "@modelcontextprotocol/ext-apps/server";
import type { McpServer, ToolCallback } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { AnySchema } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { ToolName } from "./tool-names";

const READ_ONLY_TOOL = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/** The longest tool name hosts take (Claude's connector directory, and the 2025-11-25 naming guidance). */
const MAX_TOOL_NAME = 64;
const TOOL_NAME = /^[A-Za-z0-9_.-]+$/;

interface ReadToolConfig<Input extends AnySchema, Output extends AnySchema> {
  title: string;
  description: string;
  inputSchema: Input;
  outputSchema: Output;
  /** The `ui://` shell of the tool's MCP App view (app-uris.ts), if it has one. */
  view?: string;
}

export function registerReadTool<Input extends AnySchema, Output extends AnySchema>(
  server: McpServer,
  name: ToolName,
  config: ReadToolConfig<Input, Output>,
  handler: ToolCallback<Input>,
) {
  if (name.length > MAX_TOOL_NAME || !TOOL_NAME.test(name)) throw new Error(`tool name ${name} is not one hosts take`);
  const { view, ...rest } = config;
  const tool = { ...rest, annotations: { title: config.title, ...READ_ONLY_TOOL } };
  if (view === undefined) return server.registerTool(name, tool, handler);
  return registerAppTool(server, name, { ...tool, _meta: { ui: { resourceUri: view } } }, handler);
}
