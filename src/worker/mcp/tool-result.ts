/**
 * Tool answers in MCP's shape: `structuredContent` (checked by the SDK against the tool's
 * `outputSchema`) with the same JSON as text for models that read only text, and failures as
 * `isError: true` results a model can act on (MCP 2025-06-18, "Tools" § Error handling): a refusal
 * of the catalog is `<code>: <detail>`, as the REST problem says it; anything else is our fault
 * and says so with a reference, never a protocol error.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CatalogReadError } from "../catalog/service/errors";
import { Problem } from "../http/problem";
import { mcpMessageOf } from "./catalog-errors";

export function toolAnswer(structured: Record<string, unknown>, summary: string): CallToolResult {
  return {
    structuredContent: structured,
    content: [{ type: "text", text: `${summary}\n\n${JSON.stringify(structured)}` }],
  };
}

export function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }] };
}

/** Runs a tool's work; a refusal becomes an error result instead of a thrown error. */
export async function answering(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CatalogReadError) return toolError(mcpMessageOf(error.miss));
    if (error instanceof Problem) return toolError(`${error.code}: ${error.detail}`);
    return toolError(ourFault(error));
  }
}

/** An unexpected failure, logged under a new reference: the words for the caller, without its text. */
export function ourFault(error: unknown): string {
  const reference = `mcp_${crypto.randomUUID()}`;
  console.error(JSON.stringify({ level: "error", reference, message: String((error as Error)?.message ?? error) }));
  return `The catalog failed to answer (our fault, not your input); quote ${reference} if it persists.`;
}
