/** The orders API (/v2/orders): src/worker/index.ts registers it with one call. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { registerCreateOrder } from "./create-order";
import { registerGetOrder } from "./get-order";
import { registerListOrders } from "./list-orders";
import { registerOrderMoves } from "./order-moves";

export function registerOrderRoutes(app: OpenAPIHono<AppEnv>) {
  registerCreateOrder(app);
  registerListOrders(app);
  registerGetOrder(app);
  registerOrderMoves(app);
}
