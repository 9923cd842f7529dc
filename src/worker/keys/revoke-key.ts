/**
 * DELETE /v1/keys/{id}: revoke a key of the calling key's account, effective at the very next
 * request everywhere (the key's SubjectGuard refuses it before KV catches up). A key may revoke itself
 * and keys with no more scopes than it has (403 `key_not_manageable` otherwise). Idempotent.
 */
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { accountObject, outcomeValue } from "../auth/accounts";
import { KeyView } from "../auth/account-views";
import { bearerSecurity, protect } from "../auth/protect";
import type { AppEnv } from "../http/context";
import { problemResponses } from "../http/openapi-responses";
import { noEntityTags } from "../http/preconditions";
import { NO_QUERY } from "../http/strict-query";
import { callingKey } from "./caller";
import { KeyIdParam } from "./schemas";

const route = createRoute({
  method: "delete",
  path: "/v1/keys/{id}",
  operationId: "revokeKey",
  tags: ["API keys"],
  summary: "Revoke an API key",
  middleware: [protect(), noEntityTags()] as const,
  security: bearerSecurity(),
  request: { query: NO_QUERY, params: z.object({ id: KeyIdParam }) },
  responses: {
    200: { description: "The key, now revoked.", content: { "application/json": { schema: KeyView } } },
    ...problemResponses("bad_request", "forbidden", "key_not_manageable", "key_not_found", "precondition_failed"),
  },
});

export function registerRevokeKey(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const caller = callingKey(c);
    const { id } = c.req.valid("param");
    const key = outcomeValue(
      await accountObject(c.env, caller.accountId).revokeKey(id, { withinScopes: caller.scopes }),
    );
    return c.json(key, 200);
  });
}
