/** GET /v1/keys: every key of the calling key's account on this deployment; never a secret. */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { accountObject, valueOf } from "../auth/accounts";
import { bearerSecurity, protect } from "../auth/protect";
import type { AppEnv } from "../http/context";
import { problemResponses } from "../http/openapi-responses";
import { noEntityTags } from "../http/preconditions";
import { callingKey } from "./caller";
import { KeyList } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/v1/keys",
  operationId: "listKeys",
  tags: ["API keys"],
  summary: "List the account's API keys",
  description: "Active and revoked keys, oldest first: id, name, mode, scopes, status, last four characters, created and last used.",
  middleware: [protect(), noEntityTags()] as const,
  security: bearerSecurity(),
  responses: {
    200: { description: "The keys (no secrets).", content: { "application/json": { schema: KeyList } } },
    ...problemResponses("forbidden", "precondition_failed"),
  },
});

export function registerListKeys(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const caller = callingKey(c);
    const keys = valueOf(await accountObject(c.env, caller.accountId).listKeys());
    c.header("Cache-Control", "private, no-store");
    return c.json({ data: keys }, 200);
  });
}
