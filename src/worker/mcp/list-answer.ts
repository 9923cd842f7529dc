/**
 * The list convention (docs/contract.md, "Lists") in a tool's structured content: `{object:
 * "list", data, has_more, next}` as every REST list answers, `next` the absolute pinned REST URL of
 * the next page, plus `next_cursor`, the same cursor that URL carries, for the tool's `cursor`
 * argument. A list tool may add fields of its own beside these (`release_id`, `count`).
 */
import { z } from "zod";
import { listPage } from "../http/list-page";

export function toolListSchema<Item extends z.ZodType, Extra extends z.ZodRawShape>(item: Item, extra: Extra) {
  return z.strictObject({
    object: z.literal("list"),
    ...extra,
    data: z.array(item),
    has_more: z.boolean().describe("Whether entries follow this page; then next and next_cursor are set."),
    next: z
      .string()
      .nullable()
      .describe("The next page as the pinned REST URL (GET it with the same credential), or null."),
    next_cursor: z
      .string()
      .nullable()
      .describe("The cursor of the next page (the one next carries): pass it as cursor, else null."),
  });
}

/** One page: `next` is the REST URL that carries `cursor`, both null on the last page. */
export function toolListPage<Item>(data: Item[], cursor: string | null, nextUrl: (cursor: string) => string) {
  return { ...listPage(data, cursor === null ? null : nextUrl(cursor)), next_cursor: cursor };
}
