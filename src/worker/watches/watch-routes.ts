/** GET and DELETE /v1/watches/{id}: one watch of the account; deleting it stops its events at once. */
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { problemResponses } from "../http/openapi-responses";
import { NO_QUERY } from "../http/strict-query";
import { checkedWatchId, watchNotFound, watchRouteOf } from "./guard";
import { WatchIdParam, WatchView } from "./schemas";
import { deleteWatch, viewOfWatch, watchOf } from "./watch-store";

const params = z.object({ id: WatchIdParam });

const get = createRoute({
  ...watchRouteOf("read:watches"),
  method: "get",
  path: "/v1/watches/{id}",
  operationId: "getWatch",
  summary: "A watch",
  request: { query: NO_QUERY, params },
  responses: {
    200: { description: "The watch.", content: { "application/json": { schema: WatchView } } },
    ...problemResponses("unknown_parameter", "watch_not_found", "precondition_failed"),
  },
});

const remove = createRoute({
  ...watchRouteOf("write:watches"),
  method: "delete",
  path: "/v1/watches/{id}",
  operationId: "deleteWatch",
  summary: "Delete a watch",
  description: "It is evaluated no more from now on; its events go with it.",
  request: { query: NO_QUERY, params },
  responses: {
    200: { description: "The watch, now deleted.", content: { "application/json": { schema: WatchView } } },
    ...problemResponses("unknown_parameter", "watch_not_found", "precondition_failed"),
  },
});

export function registerWatchRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(get, async (c) => {
    const id = checkedWatchId(c.req.valid("param").id);
    const row = await watchOf(c.env.CATALOG_DB, c.get("principal").accountId, id);
    if (!row) throw watchNotFound(id);
    c.header("Cache-Control", "private, no-store");
    return c.json(viewOfWatch(row), 200);
  });

  app.openapi(remove, async (c) => {
    const id = checkedWatchId(c.req.valid("param").id);
    const row = await deleteWatch(c.env.CATALOG_DB, c.get("principal").accountId, id);
    if (!row) throw watchNotFound(id);
    return c.json(viewOfWatch(row), 200);
  });
}
