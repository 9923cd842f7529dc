/**
 * What endpoints and deliveries look like to callers (the API and the dashboard): zod schemas, so
 * /openapi.json documents the shapes the WebhookStore returns. No view holds a secret except
 * CreatedWebhookEndpoint and RotatedSecret, returned once.
 */
import { z } from "@hono/zod-openapi";
import { EventTypeSchema, TEST_EVENT_TYPE, EVENT_TYPES } from "./events";

export const ENDPOINT_ID_PATTERN = /^we_[0-9A-Za-z]{20}$/;

export const WebhookEndpointView = z
  .object({
    object: z.literal("webhook_endpoint"),
    id: z.string().openapi({ example: "we_4Qb8mZ2cYw7LrT1sVx9k" }),
    url: z.string().openapi({ example: "https://example.com/hooks/catalog" }),
    events: z.array(EventTypeSchema),
    status: z.enum(["enabled", "disabled"]).openapi({
      description:
        "`disabled` once a delivery failed every attempt (about 27.6 h without a 2xx): nothing more is sent. Delete it and register it again.",
    }),
    created_at: z.string(),
    disabled_at: z.string().nullable(),
    previous_secret_expires_at: z.string().nullable().openapi({
      description: "After a rotation, the old secret signs too until this time (24 h); null otherwise.",
    }),
  })
  .openapi("WebhookEndpoint");
export type WebhookEndpointView = z.infer<typeof WebhookEndpointView>;

const secret = z.string().openapi({
  example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  description: "The signing secret (Standard Webhooks `whsec_…`). Shown here once and stored only sealed: copy it now.",
});

export const CreatedWebhookEndpoint = WebhookEndpointView.extend({ secret }).openapi("CreatedWebhookEndpoint");
export const RotatedSecret = WebhookEndpointView.extend({ secret }).openapi("RotatedWebhookEndpoint");

export const AttemptView = z
  .object({
    attempt: z.int().min(1),
    attempted_at: z.string(),
    response_status: z.int().nullable().openapi({ description: "null when no response came (timeout, refused)." }),
    error: z.string().nullable().openapi({ example: "timed out after 10 s" }),
    response_excerpt: z
      .string()
      .nullable()
      .openapi({ description: "The first 256 bytes of the response body, at most; nothing more is kept." }),
  })
  .openapi("WebhookAttempt");

export const DeliveryView = z
  .object({
    id: z.string().openapi({ description: "The `webhook-id` header: the same on every attempt." }),
    event: z.enum([...EVENT_TYPES, TEST_EVENT_TYPE]),
    status: z.enum(["pending", "succeeded", "failed"]),
    created_at: z.string(),
    next_attempt_at: z.string().nullable().openapi({ description: "When the next attempt is due; null once settled." }),
    attempts: z.array(AttemptView),
  })
  .openapi("WebhookDelivery");
export type DeliveryView = z.infer<typeof DeliveryView>;
