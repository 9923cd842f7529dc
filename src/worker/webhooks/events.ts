/**
 * The events an endpoint can subscribe to and the body every delivery carries, as Standard Webhooks
 * recommends (`{type, timestamp, data}`). One zod definition serves the worker, /openapi.json and
 * the tests.
 */
import { z } from "@hono/zod-openapi";
import { Sha256Digest } from "../../common/catalog/schema";
import { WatchEvent } from "../watches/event-schemas";

export const EVENT_TYPES = ["release.published", "release.rolled_back", "watch.triggered"] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** What an endpoint registered without `events` subscribes to: the catalog's own events (docs/webhooks.md). */
export const DEFAULT_EVENT_TYPES: readonly EventType[] = ["release.published", "release.rolled_back"];
export const WATCH_EVENT_TYPE = "watch.triggered" satisfies EventType;
/** Sent only on request (the dashboard's "send test event"), whatever the endpoint subscribes to. */
export const TEST_EVENT_TYPE = "webhook.test";
export type DeliveredEventType = EventType | typeof TEST_EVENT_TYPE;

export const EventTypeSchema = z.enum(EVENT_TYPES).openapi({ example: "release.published" });

export const ChangeCountsSchema = z
  .object({ added: z.int().min(0), changed: z.int().min(0), removed: z.int().min(0) })
  .nullable()
  .openapi("ReleaseChangeCounts", {
    description:
      "Profiles added, changed (other bytes) and removed against `previous_release_id`; null when a release has no id index to compare.",
  });

export const ReleaseEventBody = z
  .strictObject({
    type: z.enum(["release.published", "release.rolled_back", TEST_EVENT_TYPE]),
    timestamp: z.iso.datetime().openapi({ description: "When the event happened (the pointer moved)." }),
    data: z.strictObject({
      release_id: Sha256Digest.openapi({ description: "The release now served." }),
      previous_release_id: Sha256Digest.nullable().openapi({ description: "The release served before it." }),
      changes: ChangeCountsSchema,
    }),
  })
  .openapi("WebhookEvent", { description: "The JSON body of a release event's (and a test event's) delivery." });

/** A watch that caught something (docs/history.md "Watches"), sent to its account's subscribed endpoints. */
export const WatchTriggeredBody = z
  .strictObject({
    type: z.literal(WATCH_EVENT_TYPE),
    timestamp: z.iso.datetime().openapi({ description: "When the release became current." }),
    data: WatchEvent,
  })
  .openapi("WatchTriggeredEvent", { description: "The JSON body of a `watch.triggered` delivery." });

export const EventBody = z.union([ReleaseEventBody, WatchTriggeredBody]);
export type EventBody = z.infer<typeof EventBody>;
