/**
 * GET /v2/cheeses: the cheese collection of the authentication spec's example request
 * (`curl {base_url}/v2/cheeses -H "Authorization: Bearer <API_KEY>"`), scope `read:cheeses`.
 * The collection is a small fixed file, data/cheeses.json, bundled into the worker and checked
 * against the schema once at load, so a bad edit fails the build's tests, not a request.
 */
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import collection from "../../../data/cheeses.json";
import { bearerSecurity, protect } from "../auth/protect";
import type { AppEnv } from "../http/context";
import { problemResponses } from "../http/openapi-responses";
import { noEntityTags } from "../http/preconditions";
import { NO_QUERY } from "../http/strict-query";

const Cheese = z
  .object({
    id: z.string().openapi({ example: "chs_comte" }),
    name: z.string().openapi({ example: "Comté" }),
    country: z.string().length(2).openapi({ description: "ISO 3166-1 alpha-2 country of origin", example: "FR" }),
    milk: z.enum(["cow", "sheep", "goat", "buffalo"]),
    texture: z.enum(["soft", "semi-hard", "hard", "blue", "brined"]),
    aged_months: z.int().min(0),
  })
  .openapi("Cheese");

const CheeseList = z.object({ data: z.array(Cheese) }).openapi("CheeseList");
const CHEESES = CheeseList.parse({ data: collection });

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
    200: { description: "Every cheese.", content: { "application/json": { schema: CheeseList } } },
    ...problemResponses("precondition_failed"),
  },
});

export function registerCheeseRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listCheeses, (c) => {
    c.header("Cache-Control", "private, max-age=60");
    return c.json(CHEESES, 200);
  });
}
