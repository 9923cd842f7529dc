/**
 * Request and response shapes of the orders API (/v2/orders), documented in /openapi.json. Money
 * is integer minor units of one currency per order; an order's lines are priced from the cheese
 * collection when it is created, so a later price change never alters it.
 */
import { z } from "@hono/zod-openapi";
import { cheeseById, CurrencySchema } from "../cheeses/collection";
import { Address } from "../customers/schemas";
import { ORDER_STATUSES } from "./state-machine";

export const ORDER_ID_PATTERN = /^ord_[0-9A-Za-z]{20}$/;
export const MAX_ORDER_LINES = 50;
export const MAX_QUANTITY = 99;
export const ORDERS_URL = "/v2/orders";
export const MAX_ORDER_PAGE = 100;
export const DEFAULT_ORDER_PAGE = 10;

export const orderId = () => z.string().regex(ORDER_ID_PATTERN, "an order id is ord_ followed by 20 letters or digits");

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

export const OrderIdParams = z.object({
  id: OrderIdSchema.openapi({ param: { name: "id", in: "path" } }),
});

/** Bodies of cancel and advance: none, or an empty object (any field is refused). */
export const NoFields = z.strictObject({}).openapi("NoFields");
