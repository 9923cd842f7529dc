/** What every orders route shares: the customer's order book and the documented answers. */
import type { Context } from "hono";
import { accountObject } from "../auth/accounts";
import type { AppEnv } from "../http/context";
import { OrderView } from "./schemas";

/** The orders of the customer the credential acts for: another customer's are simply not there (404). */
export const ordersOf = (c: Context<AppEnv>) => accountObject(c.env, c.get("principal").accountId);

export const ORDER_CONTENT = { "application/json": { schema: OrderView } };
