/**
 * GET /v1/keys: the keys of the calling key's account on this deployment, never a secret; a list
 * as every list is (docs/contract.md, "Lists"), also paged by Stripe's `starting_after` and
 * `ending_before` (src/worker/keys/key-page.ts). An unknown query parameter is a 400, not ignored.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { accountObject, outcomeValue } from "../auth/accounts";
import { bearerSecurity, protect } from "../auth/protect";
import type { AppEnv } from "../http/context";
import { listPage } from "../http/list-page";
import { problemResponses } from "../http/openapi-responses";
import { noEntityTags } from "../http/preconditions";
import { callingKey } from "./caller";
import { keyPlaceOf, nextKeyPage, pageOfKeys } from "./key-page";
import { KEY_LIST_URL, KeyList, KeyListQuery } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/v1/keys",
  operationId: "listKeys",
  tags: ["API keys"],
  summary: "List the account's API keys",
  description:
    "Active and revoked keys, oldest first: id, name, mode, scopes, status, last four characters, created and last used. " +
    "A list as every list is: `limit` and the `cursor` of `next`; Stripe's `starting_after` (forward) and `ending_before` (backward) page too. Without `limit`, every key. Any other query parameter is a 400.",
  middleware: [protect(), noEntityTags()] as const,
  security: bearerSecurity(),
  request: { query: KeyListQuery },
  responses: {
    200: { description: "The keys (no secrets).", content: { "application/json": { schema: KeyList } } },
    ...problemResponses("bad_request", "forbidden", "precondition_failed"),
  },
});

export function registerListKeys(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const caller = callingKey(c);
    const keys = outcomeValue(await accountObject(c.env, caller.accountId).listKeys());
    const query = c.req.valid("query");
    const page = pageOfKeys(keys, await keyPlaceOf(c.env, caller.accountId, query));
    const next = await nextKeyPage(c.env, caller.accountId, query.limit, page);
    c.header("Cache-Control", "private, no-store");
    return c.json(listPage(page.data, next, { url: KEY_LIST_URL }), 200);
  });
}
