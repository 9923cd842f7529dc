/** The query and the answer of GET /v2/orders (list-orders.ts), documented in /openapi.json. */
import { z } from "@hono/zod-openapi";
import { cursorParam } from "../http/cursor";
import { firstMillisAtOrAfter, instantParam } from "../http/instant";
import { limitParam } from "../http/limit-param";
import { listSchema } from "../http/list-page";
import { strictQuery } from "../http/strict-query";
import { DEFAULT_ORDER_PAGE, MAX_ORDER_PAGE, ORDERS_URL, OrderView, orderId } from "./schemas";
import { ORDER_STATUSES } from "./state-machine";

/** An RFC 3339 time, as the first whole millisecond at or after it (created_ms are whole milliseconds). */
const Timestamp = instantParam({ utcOnly: false }).transform(firstMillisAtOrAfter).optional();

/**
 * Keyset paging (the `cursor` of `next`, or Stripe's `starting_after` beside it as an alias) and
 * filters; any other parameter is refused (strict), never ignored.
 */
export const OrderListQuery = strictQuery({
  limit: limitParam({ what: "Orders", max: MAX_ORDER_PAGE, default: DEFAULT_ORDER_PAGE }),
  cursor: cursorParam("cursor"),
  // No example: a made-up order id is refused, and Swagger UI would send one with every list.
  starting_after: orderId().optional().openapi({
    description:
      "Stripe-style alias of `cursor`: an order id from a page of this list; the page starts right after it (older orders).",
  }),
  status: z.enum(ORDER_STATUSES).optional().openapi({ description: "Only orders in this status." }),
  "created[gte]": Timestamp.openapi({
    description: "Only orders created at or after this RFC 3339 time.",
    example: "2026-11-01T00:00:00Z",
  }),
  "created[lt]": Timestamp.openapi({
    description: "Only orders created before this RFC 3339 time.",
    example: "2026-12-01T00:00:00Z",
  }),
}).refine((query) => query.cursor === undefined || query.starting_after === undefined, {
  message: "give cursor or starting_after, not both",
  path: ["starting_after"],
});
export type OrderListQuery = z.infer<typeof OrderListQuery>;

/** Newest first (by created_at, then id); `next` carries the same filters and the cursor of the page's last order. */
export const OrderList = listSchema("OrderList", OrderView, { url: z.literal(ORDERS_URL) });
