/** POST and GET /v1/watches (docs/history.md "Watches"): create a watch, list the account's. */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { type CursorScope, openCursor, sealCursor } from "../http/cursor";
import { listPage } from "../http/list-page";
import { problemResponses } from "../http/openapi-responses";
import { Problem } from "../http/problem";
import { cursorProblem } from "../http/query-problem";
import { NO_QUERY } from "../http/strict-query";
import { watchBodyHook, watchRouteOf } from "./guard";
import { CreateWatchBody, MAX_WATCHES_PER_ACCOUNT, WATCHES_URL, WatchList, WatchPageQuery, WatchView } from "./schemas";
import { watchQueryOf } from "./watch-query";
import { insertWatch, viewOfWatch, watchesOf } from "./watch-store";

const create = createRoute({
  ...watchRouteOf("write:watches"),
  method: "post",
  path: WATCHES_URL,
  operationId: "createWatch",
  summary: "Watch profiles: be told when they enter, leave or change",
  description:
    "A `query` (the filter part of a `GET /v1/profiles` query string) or 1–100 `profiles`. Evaluated at every publish and rollback from the next one on; events at `GET /v1/watches/{id}/events` and as the webhook `watch.triggered`. At most 50 per account.",
  request: {
    query: NO_QUERY,
    body: { required: true, content: { "application/json": { schema: CreateWatchBody } } },
  },
  responses: {
    201: { description: "The watch.", content: { "application/json": { schema: WatchView } } },
    ...problemResponses(
      "bad_request",
      "unknown_parameter",
      "invalid_parameter",
      "watch_limit_reached",
      "precondition_failed",
      "content_too_large",
      "unsupported_media_type",
    ),
  },
});

const list = createRoute({
  ...watchRouteOf("read:watches"),
  method: "get",
  path: WATCHES_URL,
  operationId: "listWatches",
  summary: "The account's watches, oldest first",
  request: { query: WatchPageQuery },
  responses: {
    200: { description: "One page of watches.", content: { "application/json": { schema: WatchList } } },
    ...problemResponses("unknown_parameter", "invalid_parameter", "invalid_cursor", "precondition_failed"),
  },
});

const listScope = (accountId: string): CursorScope => ({
  list: "watches",
  query: accountId,
  parameter: "cursor",
  source: "`next`",
});

export function registerWatchListRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    create,
    async (c) => {
      const body = c.req.valid("json");
      const parsed = body.query === undefined ? undefined : watchQueryOf(body.query);
      const query = parsed?.ok ? { canonical: parsed.canonical, filter: parsed.filter } : undefined;
      const watch = await insertWatch(c.env.CATALOG_DB, c.get("principal").accountId, {
        name: body.name,
        ...(query ? { query } : {}),
        ...(body.profiles ? { profiles: body.profiles } : {}),
      });
      if (!watch)
        throw new Problem(
          "watch_limit_reached",
          `This account already has ${MAX_WATCHES_PER_ACCOUNT} watches on this deployment. Delete one first: DELETE /v1/watches/{id}.`,
        );
      c.header("Cache-Control", "no-store");
      c.header("Location", `${WATCHES_URL}/${watch.id}`);
      return c.json(watch, 201);
    },
    watchBodyHook,
  );

  app.openapi(list, async (c) => {
    const { limit, cursor } = c.req.valid("query");
    const accountId = c.get("principal").accountId;
    const after = cursor === undefined ? undefined : await afterOf(c.env, listScope(accountId), cursor);
    const rows = await watchesOf(c.env.CATALOG_DB, accountId, limit + 1, after);
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    const next =
      rows.length > limit && last
        ? `${WATCHES_URL}?limit=${limit}&cursor=${await sealCursor(c.env, listScope(accountId), { at: [last.created_at, last.id] })}`
        : null;
    c.header("Cache-Control", "private, no-store");
    return c.json(listPage(shown.map(viewOfWatch), next), 200);
  });
}

async function afterOf(env: object, scope: CursorScope, cursor: string): Promise<[string, string]> {
  const { at } = await openCursor(env, scope, cursor);
  if (Array.isArray(at) && at.length === 2 && at.every((part) => typeof part === "string"))
    return at as [string, string];
  throw cursorProblem("cursor", "is not a cursor of this list: follow the previous page's `next` as it is");
}
