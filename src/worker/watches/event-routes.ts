/**
 * GET /v1/watches/{id}/events (newest first, paged) and GET /v1/watches/{id}/events/{event_id}/profiles
 * (one full list of an event, in catalog order, paged): what a watch caught, for an agent that polls.
 */
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../http/context";
import { type CursorScope, openNumberCursor, sealCursor } from "../http/cursor";
import { listPage } from "../http/list-page";
import { problemResponses } from "../http/openapi-responses";
import { Problem } from "../http/problem";
import { strictQuery } from "../http/strict-query";
import { WATCH_LISTS, WatchEntryList, WatchEventList } from "./event-schemas";
import { entriesOf, eventOf, eventsOf } from "./event-store";
import { checkedWatchId, watchNotFound, watchRouteOf } from "./guard";
import { WATCH_EVENT_ID_PATTERN, WatchEventIdParam, WatchIdParam, WatchPageQuery } from "./schemas";
import { watchOf } from "./watch-store";

const events = createRoute({
  ...watchRouteOf("read:watches"),
  method: "get",
  path: "/v1/watches/{id}/events",
  operationId: "listWatchEvents",
  summary: "What a watch caught, newest first",
  description:
    "One event per publish or rollback at which a profile entered, left or changed; kept at least 90 days. Each list holds its first 100 entries.",
  request: { query: WatchPageQuery, params: z.object({ id: WatchIdParam }) },
  responses: {
    200: { description: "One page of events.", content: { "application/json": { schema: WatchEventList } } },
    ...problemResponses("unknown_parameter", "invalid_parameter", "invalid_cursor", "watch_not_found"),
  },
});

const ProfilesQuery = strictQuery({
  list: z
    .enum(WATCH_LISTS, { error: `must be one of ${WATCH_LISTS.join(", ")}` })
    .openapi({ param: { name: "list", in: "query" }, description: "Which list of the event.", example: "entered" }),
  ...WatchPageQuery.shape,
});

const profiles = createRoute({
  ...watchRouteOf("read:watches"),
  method: "get",
  path: "/v1/watches/{id}/events/{event_id}/profiles",
  operationId: "listWatchEventProfiles",
  summary: "One full list of a watch event, in catalog order",
  request: { query: ProfilesQuery, params: z.object({ id: WatchIdParam, event_id: WatchEventIdParam }) },
  responses: {
    200: { description: "One page of the list.", content: { "application/json": { schema: WatchEntryList } } },
    ...problemResponses(
      "unknown_parameter",
      "invalid_parameter",
      "invalid_cursor",
      "watch_not_found",
      "watch_event_not_found",
    ),
  },
});

const scopeOf = (list: CursorScope["list"], query: string): CursorScope => ({
  list,
  query,
  parameter: "cursor",
  source: "`next`",
});

async function ownedWatch(c: Context<AppEnv>, raw: string) {
  const id = checkedWatchId(raw);
  if (!(await watchOf(c.env.CATALOG_DB, c.get("principal").accountId, id))) throw watchNotFound(id);
  return id;
}

export function registerWatchEventRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(events, async (c) => {
    const id = await ownedWatch(c, c.req.valid("param").id);
    const { limit, cursor } = c.req.valid("query");
    const scope = scopeOf("watch-events", id);
    const before = cursor === undefined ? undefined : await openNumberCursor(c.env, scope, cursor);
    const rows = await eventsOf(c.env.CATALOG_DB, id, limit + 1, before);
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    const next =
      rows.length > limit && last
        ? `/v1/watches/${id}/events?limit=${limit}&cursor=${await sealCursor(c.env, scope, { at: last.seq })}`
        : null;
    c.header("Cache-Control", "private, no-store");
    return c.json(
      listPage(
        shown.map(({ seq: _, ...event }) => event),
        next,
      ),
      200,
    );
  });

  app.openapi(profiles, async (c) => {
    const { id: raw, event_id: eventId } = c.req.valid("param");
    const id = await ownedWatch(c, raw);
    const { list, limit, cursor } = c.req.valid("query");
    const missing = new Problem(
      "watch_event_not_found",
      `Watch ${id} has no event ${JSON.stringify(eventId.slice(0, 80))}.`,
    );
    if (!WATCH_EVENT_ID_PATTERN.test(eventId) || !(await eventOf(c.env.CATALOG_DB, id, eventId))) throw missing;
    const scope = scopeOf("watch-event-profiles", `${eventId} ${list}`);
    const from = cursor === undefined ? 0 : await openNumberCursor(c.env, scope, cursor);
    const page = await entriesOf(c.env.CATALOG_DB, eventId, list, from, limit + 1);
    const lastOrd = page.ords[limit - 1];
    const next =
      page.ords.length > limit && lastOrd !== undefined
        ? `/v1/watches/${id}/events/${eventId}/profiles?list=${list}&limit=${limit}&cursor=${await sealCursor(c.env, scope, { at: lastOrd + 1 })}`
        : null;
    c.header("Cache-Control", "private, no-store");
    return c.json(listPage(page.entries.slice(0, limit), next), 200);
  });
}
