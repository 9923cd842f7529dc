/** Request and answer shapes of the watches API (/v1/watches), documented in /openapi.json. */
import { z } from "@hono/zod-openapi";
import { KEY_PATTERN, PROFILE_ID_PATTERN } from "../../common/catalog/schema";
import { listSchema } from "../http/list-page";
import { limitParam } from "../http/limit-param";
import { cursorParam } from "../http/cursor";
import { strictQuery } from "../http/strict-query";
import { watchQueryOf } from "./watch-query";

export const WATCHES_URL = "/v1/watches";
export const MAX_WATCHES_PER_ACCOUNT = 50;
export const MAX_WATCH_PROFILES = 100;
export const WATCH_ID_PATTERN = /^wat_[0-9A-Za-z]{20}$/;
export const WATCH_EVENT_ID_PATTERN = /^wev_[0-9a-f]{32}$/;

const ScopeRef = z
  .strictObject({
    product: z.string().regex(KEY_PATTERN, "must be a product key: lowercase words joined by hyphens"),
    funnel: z.string().regex(KEY_PATTERN, "must be a funnel key: lowercase words joined by hyphens"),
  })
  .openapi({ description: "A profile by scope: its product and funnel keys." });
const IdRef = z
  .string()
  .regex(PROFILE_ID_PATTERN, "must be a profile id: arp_ and 26 lowercase letters or digits, or {product, funnel}")
  .openapi({ description: "A profile by id.", example: "arp_kfa3bdccf91c711393576bf510" });
export const ProfileRef = z.union([ScopeRef, IdRef]);
export type ProfileRef = z.infer<typeof ProfileRef>;

export const refKey = (ref: ProfileRef) => (typeof ref === "string" ? ref : `${ref.product}/${ref.funnel}`);

export const CreateWatchBody = z
  .strictObject({
    name: z.string().min(1, "must not be empty").max(100, "must be at most 100 characters"),
    query: z.string().max(2000, "must be at most 2000 characters").optional().openapi({
      description:
        "The filter part of a `GET /v1/profiles` query string (any filter, `q`, dates; no `sort`, `limit`, `cursor`, `facets`), checked as that route checks it.",
      example: "grade=A,B&stage.pay=ready",
    }),
    profiles: z
      .array(ProfileRef)
      .min(1, "must list at least 1 profile")
      .max(100, `must list at most ${MAX_WATCH_PROFILES} profiles`)
      .optional()
      .openapi({
        description:
          "1–100 profiles, each `{product, funnel}` or an `arp_` id, no duplicates. A profile not (yet) in the catalog is accepted: it may appear later.",
      }),
  })
  .superRefine((body, ctx) => {
    if ((body.query === undefined) === (body.profiles === undefined))
      ctx.addIssue({ code: "custom", path: [], message: "give exactly one of query and profiles" });
    if (body.query !== undefined) {
      const parsed = watchQueryOf(body.query);
      if (!parsed.ok)
        for (const error of parsed.errors)
          ctx.addIssue({ code: "custom", path: ["query", error.parameter], message: error.message, params: { error } });
    }
    const seen = new Map<string, number>();
    body.profiles?.forEach((ref, i) => {
      const first = seen.get(refKey(ref));
      if (first === undefined) seen.set(refKey(ref), i);
      else ctx.addIssue({ code: "custom", path: ["profiles", i], message: `duplicates profiles.${first}` });
    });
  })
  .openapi("CreateWatch", { example: { name: "Payments ready to pay", query: "grade=A,B&stage.pay=ready" } });
export type CreateWatchBody = z.infer<typeof CreateWatchBody>;

export const WatchView = z
  .strictObject({
    object: z.literal("watch"),
    id: z.string().openapi({ example: "wat_4Qb8mZ2cYw7LrT1sVx9k" }),
    name: z.string(),
    query: z.string().nullable().openapi({ description: "The filter query string; null for a list of profiles." }),
    profiles: z.array(ProfileRef).nullable().openapi({ description: "The profiles watched; null for a query." }),
    created_at: z.string(),
  })
  .openapi("Watch");
export type WatchView = z.infer<typeof WatchView>;

export const WatchList = listSchema("WatchList", WatchView);

// At least one character, as the router needs one: an empty segment is no route of these (404 not_found).
export const WatchIdParam = z
  .string()
  .min(1)
  .openapi({ param: { name: "id", in: "path" }, example: "wat_4Qb8mZ2cYw7LrT1sVx9k" });
export const WatchEventIdParam = z
  .string()
  .min(1)
  .openapi({ param: { name: "event_id", in: "path" }, example: "wev_0123456789abcdef0123456789abcdef" });

export const WatchPageQuery = strictQuery({
  limit: limitParam({ what: "Entries", max: 100, default: 20 }),
  cursor: cursorParam("cursor"),
});
