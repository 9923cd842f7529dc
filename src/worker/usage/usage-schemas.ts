/** The shapes of GET /v1/usage and GET /v1/usage/errors (docs/contract.md "Usage"). */
import { z } from "@hono/zod-openapi";
import { cursorParam } from "../http/cursor";
import { instantParam } from "../http/instant";
import { limitParam } from "../http/limit-param";
import { listSchema } from "../http/list-page";
import { strictQuery } from "../http/strict-query";
import { GRANULARITIES } from "./usage-window";

const EXAMPLES = { from: "2026-11-20T00:00:00Z", to: "2026-11-21T00:00:00Z" } as const;

const instant = (name: "from" | "to", description: string) =>
  instantParam({ utcOnly: false })
    .optional()
    .openapi({ param: { name, in: "query" }, description, example: EXAMPLES[name] });

const KeyParam = z
  .string({ error: "must be given once" })
  .max(100, "is not a key id of this account")
  .optional()
  .openapi({
    param: { name: "key", in: "query" },
    description:
      "One key of the account (`key_live_…`); without it, the whole account. Another account's key is a 404.",
  });

export const UsageQuery = strictQuery({
  from: instant("from", "Start (RFC 3339), rounded down to the hour or day. Default: 24 hours or 30 days before `to`."),
  to: instant("to", "End (RFC 3339), rounded up to the hour or day. Default: the end of the current hour or day."),
  granularity: z
    .enum(GRANULARITIES, { error: "must be hour or day" })
    .default("hour")
    .openapi({
      param: { name: "granularity", in: "query" },
      description: "One series point per `hour` (at most 31 days) or `day` (at most 400 days).",
      example: "hour",
    }),
  key: KeyParam,
});

export const UsageErrorsQuery = strictQuery({
  key: KeyParam,
  limit: limitParam({ what: "Errors", max: 100, default: 20 }),
  cursor: cursorParam("cursor"),
});

const Count = z.int().min(0);

export const Usage = z
  .strictObject({
    object: z.literal("usage"),
    from: z.iso.datetime().openapi({ description: "The first point's start." }),
    to: z.iso.datetime().openapi({ description: "The last point's end." }),
    granularity: z.enum(GRANULARITIES),
    key_id: z.string().nullable().openapi({ description: "The key reported on; null for the whole account." }),
    totals: z.strictObject({
      requests: Count,
      by_status: z.record(z.string(), Count).openapi({ example: { "200": 1180, "429": 12 } }),
      by_code: z.record(z.string(), Count).openapi({ example: { rate_limited: 12 } }),
      bytes: Count.openapi({ description: "Response body bytes." }),
    }),
    series: z.array(
      z.strictObject({
        start: z.iso.datetime(),
        requests: Count,
        errors: Count.openapi({ description: "Answers with status ≥ 400." }),
        rate_limited: Count.openapi({ description: "429 answers." }),
      }),
    ),
  })
  .openapi("Usage");

export const UsageErrorList = listSchema(
  "UsageErrorList",
  z
    .strictObject({
      request_id: z.string().openapi({ example: "req_0f9c2a7d5e3b4c1a8f6e2d9b7c5a3e1f" }),
      at: z.iso.datetime(),
      method: z.string(),
      route: z.string().nullable().openapi({ example: "/v1/profiles/{product}/{funnel}" }),
      status: z.int(),
      code: z.string().nullable().openapi({ example: "profile_not_found" }),
    })
    .openapi("UsageError"),
);
