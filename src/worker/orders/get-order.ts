/** GET /v2/orders/{id} (`read:orders`): one of the customer's orders; any other id is 404. */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { outcomeValue } from "../auth/accounts";
import { bearerSecurity, protect } from "../auth/protect";
import type { AppEnv } from "../http/context";
import { problemResponses } from "../http/openapi-responses";
import { noEntityTags } from "../http/preconditions";
import { NO_QUERY } from "../http/strict-query";
import { ORDER_CONTENT, ordersOf } from "./access";
import { OrderIdParams } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/v2/orders/{id}",
  operationId: "getOrder",
  tags: ["Orders"],
  summary: "One order",
  middleware: [protect("read:orders"), noEntityTags()] as const,
  security: bearerSecurity("read:orders"),
  request: { query: NO_QUERY, params: OrderIdParams },
  responses: {
    200: { description: "The order.", content: ORDER_CONTENT },
    ...problemResponses("bad_request", "order_not_found", "precondition_failed"),
  },
});

export function registerGetOrder(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const order = outcomeValue(await ordersOf(c).order(c.req.valid("param").id));
    c.header("Cache-Control", "private, no-store");
    return c.json(order, 200);
  });
}
