/**
 * Request and response shapes of the orders API (/v2/orders), documented in /openapi.json. Money
 * is integer minor units of one currency per order; an order's lines are priced from the cheese
 * collection when it is created, so a later price change never alters it.
 */
import { z } from "@hono/zod-openapi";
import { cheeseById, CurrencySchema } from "../cheeses/collection";
import { Address } from "../customers/schemas";
import { ORDER_STATUSES } from "./state-machine";
import { firstMillisAtOrAfter, instantParam } from "../http/instant";
import { limitParam } from "../http/limit-param";
import { strictQuery } from "../http/strict-query";

export const ORDER_ID_PATTERN = /^ord_[0-9A-Za-z]{20}$/;
export const MAX_ORDER_LINES = 50;
export const MAX_QUANTITY = 99;
export const ORDERS_URL = "/v2/orders";
export const MAX_ORDER_PAGE = 100;
export const DEFAULT_ORDER_PAGE = 10;

const orderId = () => z.string().regex(ORDER_ID_PATTERN, "an order id is ord_ followed by 20 letters or digits");

export const OrderIdSchema = orderId().openapi({ example: "ord_8sQd2LmZpR4vXw1cTy7b" });

const Metadata = z
  .record(z.string().min(1).max(40), z.string().max(500))
  .refine((metadata) => Object.keys(metadata).length <= 20, "at most 20 keys")
  .openapi({
    description: "Your own key-value pairs (at most 20; keys up to 40 characters, values up to 500), returned as sent.",
    example: { customer_reference: "PO-1042" },
  });

const OrderLineRequest = z.strictObject({
  cheese_id: z
    .string()
    .refine((id) => cheeseById(id) !== undefined, "no such cheese: see GET /v2/cheeses")
    .openapi({ example: "chs_comte" }),
  quantity: z.int().min(1).max(MAX_QUANTITY).openapi({ example: 2 }),
});

export const CreateOrderBody = z
  .strictObject({
    items: z
      .array(OrderLineRequest)
      .min(1)
      .max(MAX_ORDER_LINES)
      .superRefine((items, ctx) => {
        // An unknown cheese is its line's problem alone: it has no currency to disagree with.
        const currencies = new Set(items.flatMap((item) => cheeseById(item.cheese_id)?.currency ?? []));
        if (currencies.size > 1)
          ctx.addIssue({ code: "custom", message: `one currency per order, not ${[...currencies].join(" and ")}` });
        const seen = new Set<string>();
        items.forEach((item, index) => {
          if (seen.has(item.cheese_id))
            ctx.addIssue({ code: "custom", path: [index, "cheese_id"], message: "each cheese once per order" });
          seen.add(item.cheese_id);
        });
      })
      .openapi({ description: `1 to ${MAX_ORDER_LINES} lines, each cheese once, all in one currency.` }),
    shipping_address: Address.optional().openapi({ description: "Defaults to the customer's shipping address." }),
    metadata: Metadata.optional(),
  })
  .openapi("CreateOrderRequest", {
    // With an address: the example must run for a customer who has none on file yet.
    example: {
      items: [{ cheese_id: "chs_comte", quantity: 2 }],
      shipping_address: { line1: "12 rue des Fromages", city: "Lyon", postal_code: "69002", country: "FR" },
    },
  });
export type CreateOrderBody = z.infer<typeof CreateOrderBody>;

export const OrderLine = z
  .object({
    cheese_id: z.string().openapi({ example: "chs_comte" }),
    name: z.string().openapi({ example: "Comté" }),
    quantity: z.int().min(1).max(MAX_QUANTITY),
    unit_amount: z.int().openapi({ description: "The price of one unit when the order was made.", example: 2450 }),
  })
  .openapi("OrderLine");
export type OrderLine = z.infer<typeof OrderLine>;

export const OrderView = z
  .object({
    id: OrderIdSchema,
    object: z.literal("order"),
    status: z.enum(ORDER_STATUSES),
    items: z.array(OrderLine),
    amount_total: z.int().openapi({ description: "Sum of quantity × unit_amount, in minor units.", example: 4900 }),
    currency: CurrencySchema,
    shipping_address: Address,
    metadata: z.record(z.string(), z.string()),
    created_at: z.string().openapi({ example: "2026-11-20T09:30:00.000Z" }),
    updated_at: z.string().openapi({ example: "2026-11-20T09:30:00.000Z" }),
    livemode: z.boolean().openapi({ description: "true on production; false for sandbox orders (test keys)." }),
  })
  .openapi("Order");
export type OrderView = z.infer<typeof OrderView>;

/** An RFC 3339 time, as the first whole millisecond at or after it (created_ms are whole milliseconds). */
const Timestamp = instantParam({ utcOnly: false }).transform(firstMillisAtOrAfter).optional();

/** Keyset paging and filters; any other parameter is refused (strict), never ignored. */
export const OrderListQuery = strictQuery({
  limit: limitParam({ what: "Orders", max: MAX_ORDER_PAGE, default: DEFAULT_ORDER_PAGE }),
  // No example: a made-up order id is refused, and Swagger UI would send one with every list.
  starting_after: orderId().optional().openapi({
    description: "An order id from a page of this list: the page starts right after it (older orders).",
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
});
export type OrderListQuery = z.infer<typeof OrderListQuery>;

export const OrderList = z
  .object({
    object: z.literal("list"),
    data: z.array(OrderView).openapi({ description: "Newest first (by created_at, then id)." }),
    has_more: z.boolean().openapi({ description: "Whether older orders match beyond this page." }),
    url: z.literal(ORDERS_URL),
    next: z.string().nullable().openapi({
      description:
        "The next page's path and query (same filters, starting_after the last order); null on the last page.",
      example: "/v2/orders?limit=10&starting_after=ord_8sQd2LmZpR4vXw1cTy7b",
    }),
  })
  .openapi("OrderList");

export const OrderIdParams = z.object({
  id: OrderIdSchema.openapi({ param: { name: "id", in: "path" } }),
});

/** Bodies of cancel and advance: none, or an empty object (any field is refused). */
export const NoFields = z.strictObject({}).openapi("NoFields");
