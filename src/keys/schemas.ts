/** Request and response shapes of the self-service key API (/v1/keys), documented in /openapi.json. */
import { z } from "@hono/zod-openapi";
import { KEY_MODES } from "../auth/api-key";
import { KeyView } from "../auth/account-views";
import { KEY_ID_PATTERN } from "../auth/ids";
import { ScopeSchema } from "../auth/scopes";

export const CreateKeyBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional().openapi({ example: "CI (GitHub Actions)" }),
    mode: z
      .enum(KEY_MODES)
      .optional()
      .openapi({ description: "Defaults to this deployment's mode: live on production, test on the sandbox. The other mode is refused." }),
    scopes: z
      .array(ScopeSchema)
      .min(1)
      .optional()
      .openapi({ description: "At most the calling key's scopes. Default: every scope except admin that the calling key has." }),
  })
  .openapi("CreateKeyRequest");

export const CreatedKey = KeyView.extend({
  secret: z.string().openapi({
    example: "sk_test_7oUzFLB2iJuxkWcuC3hcSbwcFX5gOi0pCri4",
    description: "The API key. Shown here once and stored nowhere: copy it now.",
  }),
}).openapi("CreatedApiKey");

export const KeyList = z.object({ data: z.array(KeyView) }).openapi("ApiKeyList");

export const KeyIdParam = z
  .string()
  .regex(KEY_ID_PATTERN, "a key id looks like key_live_… or key_test_… followed by 20 base62 characters")
  .openapi({ param: { name: "id", in: "path" }, example: "key_test_8sQd2LmZpR4vXw1cTy7b" });
