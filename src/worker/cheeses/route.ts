/**
 * GET /v2/cheeses: the cheese collection of the authentication spec's example request
 * (`curl {base_url}/v2/cheeses -H "Authorization: Bearer <API_KEY>"`), scope `read:cheeses`.
 * Each cheese has its price (`unit_amount` in minor units, `currency`), which orders use (collection.ts).
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { bearerSecurity, protect } from "../auth/protect";
import type { AppEnv } from "../http/context";
import { problemResponses } from "../http/openapi-responses";
import { noEntityTags } from "../http/preconditions";
import { NO_QUERY } from "../http/strict-query";
import { CHEESES, CheeseList } from "./collection";

const listCheeses = createRoute({
  method: "get",
  path: "/v2/cheeses",
  operationId: "listCheeses",
  tags: ["Cheeses"],
  summary: "The cheese collection",
  middleware: [protect("read:cheeses"), noEntityTags()] as const,
  security: bearerSecurity("read:cheeses"),
  request: { query: NO_QUERY },
  responses: {
    200: { description: "Every cheese, with its price.", content: { "application/json": { schema: CheeseList } } },
    ...problemResponses("precondition_failed"),
  },
});

export function registerCheeseRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listCheeses, (c) => {
    c.header("Cache-Control", "private, max-age=60");
    return c.json(CHEESES, 200);
  });
}
