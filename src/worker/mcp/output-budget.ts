/**
 * The bound on one tool result (docs/mcp.md, "Bounded output"): at most 80,000 characters of text
 * across its content and its structured content, about 20,000 tokens, under the 25,000 tokens
 * Claude Code takes from one tool. A list that would exceed it is clamped: the page is read again
 * with as many entries as fit, so its `next_cursor` continues right after the last one shown.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { toolError } from "./tool-result";

const MAX_RESULT_CHARACTERS = 80_000;

/** The characters a result carries: its text contents, and its structured content as JSON. */
function resultCharacters(result: CallToolResult): number {
  const texts = result.content.map((item) => (item.type === "text" ? item.text.length : 0));
  const structured = result.structuredContent ? JSON.stringify(result.structuredContent).length : 0;
  return texts.reduce((sum, n) => sum + n, structured);
}

/** Room kept for the summary line, whose numbers change with the page. */
const SUMMARY_SLACK = 200;

/** How many leading entries of its list (`data`) a result can keep and fit (each is in it twice: text and structured). */
function entriesThatFit(result: CallToolResult): number {
  const entries = (result.structuredContent?.data ?? []) as unknown[];
  let excess = resultCharacters(result) - MAX_RESULT_CHARACTERS + SUMMARY_SLACK;
  let kept = entries.length;
  while (excess > 0 && kept > 0) {
    kept--;
    excess -= 2 * (JSON.stringify(entries[kept]).length + 1);
  }
  return kept;
}

const tooLarge = (what: string) =>
  toolError(
    `result_too_large: ${what} would exceed ${MAX_RESULT_CHARACTERS.toLocaleString("en")} characters; ask for fewer (a smaller limit or fewer profiles) or detail "summary".`,
  );

/**
 * A list page within the bound: read with `limit`; if its answer is too large, read again with
 * the entries that fit (the read's own cursor then starts after them).
 */
export async function boundedPage<Page>(
  limit: number,
  read: (limit: number) => Promise<Page>,
  answer: (page: Page) => CallToolResult,
): Promise<CallToolResult> {
  let page = await read(limit);
  let result = answer(page);
  while (resultCharacters(result) > MAX_RESULT_CHARACTERS) {
    const fit = entriesThatFit(result);
    if (fit === 0) return tooLarge("one entry of this list");
    page = await read(fit);
    result = answer(page);
  }
  return result;
}

/** A result that is not a list: itself within the bound, else the refusal saying what to ask instead. */
export const bounded = (result: CallToolResult, what: string) =>
  resultCharacters(result) > MAX_RESULT_CHARACTERS ? tooLarge(what) : result;
