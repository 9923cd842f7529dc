/**
 * GET /v1/releases: the kept releases as a history of the events that made each current, newest
 * first — one entry per publish and one per rollback (KV `history`, release-history.ts) — each
 * with its manifest's figures and the change counts against the release it replaced.
 */
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { cursorWithAfterAlias, oneCursorName, openNumberCursor, presentedCursor, sealCursor } from "../http/cursor";
import { listPage, listSchema } from "../http/list-page";
import { limitParam } from "../http/limit-param";
import { strictQuery } from "../http/strict-query";
import { problemResponses } from "../http/openapi-responses";
import { Problem } from "../http/problem";
import { hexOf, KEPT_PREVIOUS_RELEASES, type CurrentPointer } from "../../common/catalog/manifest";
import { ChangeCountsSchema, readHistory, type HistoryEntry } from "../../common/catalog/release-history";
import { Sha256Digest } from "../../common/catalog/schema";
import { readCurrentPointer, readManifest } from "../../common/catalog/store";
import { catalogRoute } from "./access";
import type { CatalogAccess } from "./access";
import { CATALOG_RETRY_AFTER_SECONDS } from "./release-lookup";
import { IDENTITY_CODING } from "./identity-only";
import { CACHE_CURRENT } from "./representation";

export const HISTORY_PAGE_LIMIT = 100;
export const DEFAULT_HISTORY_PAGE = 20;
/** A page starts after the event its cursor names (by sequence): the history of one deployment, not of a release. */
const historyCursor = (parameter: string) => ({ list: "history", query: "", parameter, source: "`next` URL" }) as const;

const ReleaseEvent = z
  .strictObject({
    release_id: Sha256Digest,
    event: z.enum(["publish", "rollback"]).openapi({
      description:
        "`publish`: a publish made the release current; `rollback`: `catalog:rollback` made it current again.",
    }),
    at: z.iso.datetime().nullable().openapi({
      description:
        "When the event made the release current; for a current release made current before the history was kept, its `published_at`.",
    }),
    published_at: z.iso.datetime().nullable().openapi({ description: "When the release was first published." }),
    profile_count: z.int().min(0),
    bytes: z.int().min(1).openapi({ description: "Size of the release's document." }),
    current: z
      .boolean()
      .openapi({ description: "True for exactly one entry: the event that made the served release current." }),
    previous_release_id: Sha256Digest.nullable().openapi({ description: "The release that was current before." }),
    changes: ChangeCountsSchema.nullable().openapi({
      description:
        "Profiles added, changed and removed against `previous_release_id`; null when there is none or it predates profile indexes.",
    }),
  })
  .openapi("ReleaseEvent");

const ReleaseEventList = listSchema("ReleaseEventList", ReleaseEvent);

const HistoryQuery = strictQuery({
  limit: limitParam({ what: "Entries", max: HISTORY_PAGE_LIMIT, default: DEFAULT_HISTORY_PAGE }),
  ...cursorWithAfterAlias,
}).refine(...oneCursorName);

export function registerReleaseHistoryRoute(app: OpenAPIHono<AppEnv>, access: CatalogAccess) {
  const route = catalogRoute(access, {
    method: "get",
    path: "/v1/releases",
    operationId: "listReleases",
    summary: "The kept releases, as the history of publishes and rollbacks",
    description:
      "Newest event first. A rollback is an entry of its own (`event: rollback`), so a release can appear twice. " +
      `Only events whose release is still kept (the current one and the ${KEPT_PREVIOUS_RELEASES} before it) are listed; the current release always is.`,
    request: { query: HistoryQuery },
    responses: {
      200: {
        description: "One page of the history.",
        content: { "application/json": { schema: ReleaseEventList } },
      },
      ...problemResponses("bad_request", "catalog_unavailable", "release_unavailable"),
    },
  });
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { limit } = query;
    const presented = presentedCursor(query);
    const pointer = await readCurrentPointer(c.env.CATALOG_KV);
    if (!pointer)
      throw new Problem("catalog_unavailable", "No catalog release has been published on this deployment yet.", {
        headers: { "Retry-After": String(CATALOG_RETRY_AFTER_SECONDS) },
      });
    const events = keptEvents((await readHistory(c.env.CATALOG_KV)).entries, pointer);
    const before = presented
      ? await openNumberCursor(c.env, historyCursor(presented.parameter), presented.cursor)
      : undefined;
    const from = before === undefined ? 0 : events.findIndex((event) => event.sequence < before);
    const page = from < 0 ? [] : events.slice(from, from + limit);
    const hasMore = from >= 0 && from + limit < events.length;
    const last = page.at(-1);
    const cursor = hasMore && last ? await sealCursor(c.env, historyCursor("cursor"), { at: last.sequence }) : null;
    const data = await Promise.all(
      page.map(async (event) => {
        const manifest = await readManifest(c.env.CATALOG_KV, hexOf(event.release_id));
        if (!manifest)
          throw new Problem("release_unavailable", `Release ${event.release_id} is not readable here yet.`);
        return {
          release_id: event.release_id,
          event: event.event,
          at: event.at || manifest.published_at,
          published_at: manifest.published_at,
          profile_count: manifest.profile_count,
          bytes: manifest.bytes,
          current: event.current,
          previous_release_id: event.previous_release_id,
          changes: event.changes,
        };
      }),
    );
    const next = cursor ? `/v1/releases?limit=${limit}&cursor=${cursor}` : null;
    c.header("Cache-Control", CACHE_CURRENT);
    // CACHE_CURRENT says no-transform, as on every catalog answer: sent as it is (identity-only.ts).
    return c.json(listPage(data, next), 200, IDENTITY_CODING);
  });
}

type ListedEvent = HistoryEntry & { current: boolean };

/**
 * The history's events whose release is still kept, the event that made the served release
 * current marked. A deployment whose releases were published before the history existed shows
 * its kept releases as publishes, newest first (their time is when they were first published).
 */
function keptEvents(entries: readonly HistoryEntry[], pointer: CurrentPointer): ListedEvent[] {
  const kept = new Set([pointer.release_id, ...pointer.previous]);
  const events: ListedEvent[] = entries
    .filter((entry) => kept.has(entry.release_id))
    .map((entry) => ({ ...entry, current: false }));
  const current = events.find((event) => event.release_id === pointer.release_id);
  if (current) current.current = true;
  else {
    const sequence = (entries[0]?.sequence ?? 0) + 1;
    events.unshift({
      sequence,
      event: "publish",
      release_id: pointer.release_id,
      at: "",
      previous_release_id: pointer.previous[0] ?? null,
      changes: null,
      current: true,
    });
  }
  return events;
}
