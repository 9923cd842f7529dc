/** Request and response shapes of the self-service key API (/v1/keys), documented in /openapi.json. */
import { z } from "@hono/zod-openapi";
import { KEY_MODES } from "../../common/auth/api-key";
import { KeyNameSchema, KeyView } from "../auth/account-views";
import { KEY_ID_PATTERN } from "../../common/auth/ids";
import { ScopeSchema } from "../../common/auth/scopes";
import { cursorParam } from "../http/cursor";
import { optionalLimitParam } from "../http/limit-param";
import { listSchema } from "../http/list-page";
import { strictQuery } from "../http/strict-query";

export const CreateKeyBody = z
  .strictObject({
    name: KeyNameSchema.optional().openapi({ example: "CI (GitHub Actions)" }),
    mode: z.enum(KEY_MODES).optional().openapi({
      description:
        "Defaults to this deployment's mode: live on production, test on the sandbox. The other mode is refused.",
    }),
    scopes: z.array(ScopeSchema).min(1).optional().openapi({
      description: "At most the calling key's scopes. Default: every scope except admin that the calling key has.",
    }),
  })
  .openapi("CreateKeyRequest");

export const CreatedKey = KeyView.extend({
  secret: z.string().openapi({
    example: "sk_test_7oUzFLB2iJuxkWcuC3hcSbwcFX5gOi0pCri4",
    description: "The API key. Shown here once and stored nowhere: copy it now.",
  }),
}).openapi("CreatedApiKey");

export const KEY_LIST_URL = "/v1/keys";
export const MAX_PAGE_LIMIT = 100;

/** Oldest first (by created_at, then id); `has_more` and `next` go on in the direction the page was read. */
export const KeyList = listSchema("ApiKeyList", KeyView, { url: z.literal(KEY_LIST_URL) });

export const KeyIdParam = z
  .string()
  .regex(KEY_ID_PATTERN, "a key id looks like key_live_… or key_test_… followed by 20 base62 characters")
  .openapi({ param: { name: "id", in: "path" }, example: "key_test_8sQd2LmZpR4vXw1cTy7b" });

const cursor = (description: string) =>
  z
    .string()
    .regex(KEY_ID_PATTERN, "a key id looks like key_live_… or key_test_… followed by 20 base62 characters")
    .optional()
    // No example: a made-up key id is refused, and Swagger UI would send one with every list.
    .openapi({ description });

/**
 * The one `cursor` of every list (from `next`), and Stripe's `starting_after` and `ending_before`
 * kept beside it as aliases; any other parameter is refused (strict), never ignored.
 */
export const KeyListQuery = strictQuery({
  limit: optionalLimitParam({ what: "Keys", max: MAX_PAGE_LIMIT }),
  cursor: cursorParam("cursor"),
  starting_after: cursor("Stripe-style alias: a key id from the list; the page starts right after it."),
  ending_before: cursor("Stripe-style alias: a key id from the list; the page ends right before it."),
}).refine((query) => [query.cursor, query.starting_after, query.ending_before].filter(Boolean).length < 2, {
  message: "give one of cursor, starting_after and ending_before",
  path: ["ending_before"],
});
export type KeyListQuery = z.infer<typeof KeyListQuery>;
