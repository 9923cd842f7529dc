/** What a watch event looks like (the API, the webhook `watch.triggered` and the dashboard). */
import { z } from "@hono/zod-openapi";
import { Sha256Digest } from "../../common/catalog/schema";
import { listSchema } from "../http/list-page";

export const WATCH_LISTS = ["entered", "left", "changed"] as const;
export type WatchListName = (typeof WATCH_LISTS)[number];
/** Entries of each list an event carries; the rest are paged at …/events/{event_id}/profiles. */
export const EVENT_LIST_CAP = 100;

const stage = z.string();
export const WatchEntry = z
  .strictObject({
    agent_readiness_profile_id: z.string().openapi({ example: "arp_kfa3bdccf91c711393576bf510" }),
    product_key: z.string(),
    funnel_key: z.string(),
    sha256: Sha256Digest.optional().openapi({ description: "Its bytes in the new release; absent for `left`." }),
    previous_sha256: Sha256Digest.optional().openapi({
      description: "Its bytes in the previous release; absent for `entered`.",
    }),
    grade: z.string(),
    stages: z.strictObject({ evaluate: stage, sign_up: stage, pay: stage, provision: stage, operate: stage }),
    fields_changed: z.array(z.string()),
    href: z
      .string()
      .openapi({ description: "The profile pinned to the release it is in now (the previous one for `left`)." }),
  })
  .openapi("WatchEntry");
export type WatchEntry = z.infer<typeof WatchEntry>;

export const WatchEvent = z
  .strictObject({
    object: z.literal("watch_event"),
    id: z.string().openapi({ example: "wev_0123456789abcdef0123456789abcdef" }),
    watch_id: z.string(),
    watch_name: z.string(),
    at: z.string().openapi({ description: "When the release became current." }),
    release_id: Sha256Digest,
    previous_release_id: Sha256Digest.nullable(),
    entered: z.array(WatchEntry),
    left: z.array(WatchEntry),
    changed: z.array(WatchEntry),
    entered_count: z.int().min(0),
    left_count: z.int().min(0),
    changed_count: z.int().min(0),
  })
  .openapi("WatchEvent", {
    description: `Each list holds its first ${EVENT_LIST_CAP} entries in catalog order; \`*_count\` the full number.`,
  });
export type WatchEvent = z.infer<typeof WatchEvent>;

export const WatchEventList = listSchema("WatchEventList", WatchEvent);
export const WatchEntryList = listSchema("WatchEntryList", WatchEntry);
