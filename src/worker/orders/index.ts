/** The orders API (/v2/orders) and the customer profile (/v2/customer): src/worker/index.ts registers them with one call. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { registerCustomerRoutes } from "../customers/routes";
import type { AppEnv } from "../http/context";
import { registerCreateOrder } from "./create-order";
import { registerGetOrder } from "./get-order";
import { registerListOrders } from "./list-orders";
import { registerOrderMoves } from "./order-moves";

export function registerOrderRoutes(app: OpenAPIHono<AppEnv>) {
  registerCustomerRoutes(app);
  registerCreateOrder(app);
  registerListOrders(app);
  registerGetOrder(app);
  registerOrderMoves(app);
}
