/**
 * POST /v2/orders (`write:orders`): an order of cheeses for the customer the credential acts for,
 * priced from the collection, shipped to the given address or the customer's. With an
 * `Idempotency-Key` (as Stripe's), a retry within 24 hours gets the first answer again, and the
 * key with another request is 409 `idempotency_key_reused`; the key, the order and the record are
 * decided in one synchronous step of the account's Durable Object (order-book.ts).
 */
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { canonicalJson } from "../../common/canonical-json";
import { sha256Hex } from "../../common/sha256";
import { outcomeValue } from "../auth/accounts";
import { bearerSecurity, protect } from "../auth/protect";
import { cheeseById } from "../cheeses/collection";
import type { AppEnv } from "../http/context";
import { header, problemResponses } from "../http/openapi-responses";
import { noEntityTags } from "../http/preconditions";
import { NO_QUERY } from "../http/strict-query";
import { ORDER_CONTENT, ordersOf } from "./access";
import type { NewOrder } from "./order-book";
import { CreateOrderBody, ORDERS_URL, type OrderLine } from "./schemas";

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/**
 * Accepted without a key, as Stripe does (refusing would break every client of the documented,
 * optional header), but said on the answer, so a client that lost its key (e.g. an empty
 * `$(uuidgen)`, which curl then omits) learns that a retry would place a second order.
 */
const MISSING_KEY_HEADER = "Idempotency-Warning";
const MISSING_KEY_WARNING =
  "no Idempotency-Key was sent: a retry of this request places another order; send Idempotency-Key: <a new UUID>";
/** The document's example; /openapi.json serves a fresh UUID in its place (src/worker/docs/served-examples.ts). */
export const EXAMPLE_IDEMPOTENCY_KEY = "5f1c2d8e-6a4b-4c1e-9d2f-0b7e3a9c4d11";

const IdempotencyKey = z
  .string()
  .min(1)
  .max(MAX_IDEMPOTENCY_KEY_LENGTH)
  .regex(/^[\x21-\x7e]+$/, "visible ASCII characters only, no spaces")
  .optional()
  .openapi({
    description:
      "Up to 255 visible ASCII characters, e.g. a UUID. A retry with the same key and request within 24 hours answers what the first one did; the same key with another request is 409.",
    example: EXAMPLE_IDEMPOTENCY_KEY,
  });

const route = createRoute({
  method: "post",
  path: ORDERS_URL,
  operationId: "createOrder",
  tags: ["Orders"],
  summary: "Place an order",
  middleware: [protect("write:orders"), noEntityTags()] as const,
  security: bearerSecurity("write:orders"),
  request: {
    query: NO_QUERY,
    headers: z.object({ "idempotency-key": IdempotencyKey }),
    body: { required: true, content: { "application/json": { schema: CreateOrderBody } } },
  },
  responses: {
    201: {
      description: "The order, `pending`. A replay (same Idempotency-Key and request) repeats the first answer.",
      headers: {
        Location: header("The order's URL, `/v2/orders/{id}`.", true),
        "Idempotent-Replayed": header("`true` when this answer is the replay of an earlier request with the same key."),
        [MISSING_KEY_HEADER]: header(
          "Present when the request had no Idempotency-Key: it says that a retry would place a second order.",
        ),
      },
      content: ORDER_CONTENT,
    },
    ...problemResponses("bad_request", "idempotency_key_reused", "precondition_failed", "unsupported_media_type"),
  },
});

export function registerCreateOrder(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const key = c.req.valid("header")["idempotency-key"];
    const items = body.items.map(priceLine);
    const order: NewOrder = {
      items,
      amount_total: items.reduce((sum, line) => sum + line.quantity * line.unit_amount, 0),
      currency: currencyOf(body.items[0]?.cheese_id),
      shipping_address: body.shipping_address ?? null,
      metadata: body.metadata ?? {},
      idempotency: key
        ? {
            keyHash: await sha256Hex(key),
            fingerprint: await sha256Hex(canonicalJson({ method: "POST", path: ORDERS_URL, body })),
          }
        : null,
    };
    const created = outcomeValue(await ordersOf(c).createOrder(order));
    if (created.replayed) c.header("Idempotent-Replayed", "true");
    if (!key) c.header(MISSING_KEY_HEADER, MISSING_KEY_WARNING);
    c.header("Location", `${ORDERS_URL}/${created.order.id}`);
    c.header("Cache-Control", "no-store");
    return c.json(created.order, 201);
  });
}

/** The body's schema already refused unknown cheeses: a miss here is a bug, not the client's. */
function cheeseOf(id: string | undefined) {
  const cheese = id === undefined ? undefined : cheeseById(id);
  if (!cheese) throw new Error(`cheese ${id} passed validation but is not in the collection`);
  return cheese;
}

function priceLine(item: { cheese_id: string; quantity: number }): OrderLine {
  const { id, name, unit_amount } = cheeseOf(item.cheese_id);
  return { cheese_id: id, name, quantity: item.quantity, unit_amount };
}

const currencyOf = (id: string | undefined) => cheeseOf(id).currency;
