/**
 * GET /v2/orders (`read:orders`): the customer's orders, newest first, a list as every list is
 * (docs/contract.md, "Lists"): paged by keyset (the `cursor` of `next` names the last order of a
 * page, bound to the customer and the filters; Stripe's `starting_after` an order id), filtered by `status` and
 * `created[gte]`/`created[lt]`. Only this deployment's orders: the sandbox's never show on production.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { outcomeValue } from "../auth/accounts";
import { bearerSecurity, protect } from "../auth/protect";
import type { AppEnv } from "../http/context";
import { type CursorScope, openTextCursor, sealCursor } from "../http/cursor";
import { listPage } from "../http/list-page";
import { problemResponses } from "../http/openapi-responses";
import { noEntityTags } from "../http/preconditions";
import { ordersOf } from "./access";
import { OrderList, OrderListQuery } from "./list-schemas";
import { ORDERS_URL } from "./schemas";

/** A cursor of one customer's orders under one set of filters: never one of another list. */
const ordersCursor = (accountId: string, query: OrderListQuery): CursorScope => ({
  list: "orders",
  query: JSON.stringify([accountId, query.status, query["created[gte]"], query["created[lt]"]]),
  parameter: "cursor",
  source: "`next` URL",
});

const route = createRoute({
  method: "get",
  path: ORDERS_URL,
  operationId: "listOrders",
  tags: ["Orders"],
  summary: "List the customer's orders",
  description:
    "Newest first. `limit` (default 10) with the `cursor` of `next` (or Stripe's `starting_after`, an order id) pages backwards in time. " +
    "Filters: `status`, `created[gte]`, `created[lt]` (RFC 3339). Any other query parameter is a 400.",
  middleware: [protect("read:orders"), noEntityTags()] as const,
  security: bearerSecurity("read:orders"),
  request: { query: OrderListQuery },
  responses: {
    200: { description: "One page of orders.", content: { "application/json": { schema: OrderList } } },
    ...problemResponses("bad_request", "precondition_failed"),
  },
});

export function registerListOrders(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const scope = ordersCursor(c.get("principal").accountId, query);
    const startingAfter =
      query.cursor === undefined ? query.starting_after : await openTextCursor(c.env, scope, query.cursor);
    const page = outcomeValue(
      await ordersOf(c).orders({
        limit: query.limit,
        starting_after: startingAfter,
        status: query.status,
        createdFrom: query["created[gte]"],
        createdBefore: query["created[lt]"],
      }),
    );
    const last = page.data.at(-1);
    const next =
      page.has_more && last ? nextPage(c.req.query(), await sealCursor(c.env, scope, { at: last.id })) : null;
    c.header("Cache-Control", "private, no-store");
    return c.json(listPage(page.data, next, { url: ORDERS_URL }), 200);
  });
}

/** The same query (filters, limit) with the cursor of the page's last order. */
function nextPage(query: Record<string, string>, cursor: string): string {
  const params = new URLSearchParams(query);
  params.delete("starting_after");
  params.set("cursor", cursor);
  return `${ORDERS_URL}?${params}`;
}
