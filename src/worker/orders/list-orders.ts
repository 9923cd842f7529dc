/**
 * GET /v2/orders (`read:orders`): the customer's orders, newest first, paged by keyset
 * (`starting_after` the last order of a page; `next` spells the URL), filtered by `status` and
 * `created[gte]`/`created[lt]`. Only this deployment's orders: the sandbox's never show on production.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { outcomeValue } from "../auth/accounts";
import { bearerSecurity, protect } from "../auth/protect";
import type { AppEnv } from "../http/context";
import { problemResponses } from "../http/openapi-responses";
import { noEntityTags } from "../http/preconditions";
import { ordersOf } from "./access";
import { OrderList, OrderListQuery, ORDERS_URL } from "./schemas";

const route = createRoute({
  method: "get",
  path: ORDERS_URL,
  operationId: "listOrders",
  tags: ["Orders"],
  summary: "List the customer's orders",
  description:
    "Newest first. `limit` (default 10) with `starting_after` pages backwards in time; `next` is the next page's URL. " +
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
    const page = outcomeValue(
      await ordersOf(c).orders({
        limit: query.limit,
        starting_after: query.starting_after,
        status: query.status,
        createdFrom: query["created[gte]"],
        createdBefore: query["created[lt]"],
      }),
    );
    const last = page.data.at(-1);
    c.header("Cache-Control", "private, no-store");
    return c.json(
      {
        object: "list" as const,
        ...page,
        url: ORDERS_URL,
        next: page.has_more && last ? nextPage(c.req.query(), last.id) : null,
      },
      200,
    );
  });
}

/** The same query with `starting_after` the page's last order. */
function nextPage(query: Record<string, string>, lastId: string): string {
  const params = new URLSearchParams(query);
  params.set("starting_after", lastId);
  return `${ORDERS_URL}?${params}`;
}
