/**
 * The one answer shape of every list (docs/contract.md, "Lists"): `{object: "list", data, has_more,
 * next}`, `next` the URL of the next page (carrying its cursor) while `has_more`, else null. A list
 * may add fields of its own beside these (`release_id`, `count`), never rename them.
 */
import { z } from "@hono/zod-openapi";

/** The documented schema of a list of `item`, registered in OpenAPI as `name`. */
export function listSchema<Item extends z.ZodType, Extra extends z.ZodRawShape = Record<never, never>>(
  name: string,
  item: Item,
  extra?: Extra,
) {
  return z
    .strictObject({
      object: z.literal("list"),
      ...(extra ?? ({} as Extra)),
      data: z.array(item),
      has_more: z.boolean().openapi({ description: "Whether entries follow this page; then `next` is set." }),
      next: z
        .string()
        .nullable()
        .openapi({ description: "The next page's URL (a path with its query) while `has_more`, else null." }),
    })
    .openapi(name);
}

/** The body of one page, with the list's own fields beside: `has_more` is exactly whether there is a `next`. */
export function listPage<Item, Extra extends object = Record<never, never>>(
  data: Item[],
  next: string | null,
  extra?: Extra,
) {
  return { object: "list" as const, ...(extra ?? ({} as Extra)), data, has_more: next !== null, next };
}
