/**
 * The two moves of an order's state machine (state-machine.ts), both `write:orders`:
 * - POST /v2/orders/{id}/cancel: the customer's, while the order is `pending` or `paid`;
 * - POST /v2/orders/{id}/test_helpers/advance: the sandbox's test helper (as Stripe's), which
 *   plays payment then shipping (`pending` → `paid` → `shipped`); production has no such helper
 *   (404), since its orders move only by real payment and shipping.
 * Any other move is 409 `invalid_state_transition` and changes nothing.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { outcomeValue } from "../auth/accounts";
import { bearerSecurity, protect } from "../auth/protect";
import type { AppEnv } from "../http/context";
import { problemResponses } from "../http/openapi-responses";
import { noEntityTags } from "../http/preconditions";
import { Problem } from "../http/problem";
import type { ProblemCode } from "../http/problem-types";
import { NO_QUERY } from "../http/strict-query";
import { ORDER_CONTENT, ordersOf } from "./access";
import { NoFields, OrderIdParams } from "./schemas";

const moveRoute = (options: {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  extraProblems: ProblemCode[];
}) => {
  const { extraProblems, ...described } = options;
  return createRoute({
    method: "post",
    ...described,
    tags: ["Orders"],
    middleware: [protect("write:orders"), noEntityTags()] as const,
    security: bearerSecurity("write:orders"),
    request: {
      query: NO_QUERY,
      params: OrderIdParams,
      body: { required: false, content: { "application/json": { schema: NoFields } } },
    },
    responses: {
      200: { description: "The order in its new status.", content: ORDER_CONTENT },
      ...problemResponses(
        "bad_request",
        "order_not_found",
        "invalid_state_transition",
        "precondition_failed",
        "unsupported_media_type",
        ...extraProblems,
      ),
    },
  });
};

const cancel = moveRoute({
  path: "/v2/orders/{id}/cancel",
  operationId: "cancelOrder",
  summary: "Cancel an order",
  description: "Allowed while the order is `pending` or `paid`; a `shipped` or `cancelled` order is 409.",
  extraProblems: [],
});

const advance = moveRoute({
  path: "/v2/orders/{id}/test_helpers/advance",
  operationId: "advanceTestOrder",
  summary: "Sandbox: move a test order to its next status",
  description:
    "Sandbox only (production answers 404 `not_found`): `pending` → `paid` → `shipped`, as payment and shipping would, for integration tests.",
  extraProblems: ["not_found"],
});

export function registerOrderMoves(app: OpenAPIHono<AppEnv>) {
  app.openapi(cancel, async (c) => {
    const order = outcomeValue(await ordersOf(c).moveOrder(c.req.valid("param").id, "cancel"));
    c.header("Cache-Control", "no-store");
    return c.json(order, 200);
  });

  app.openapi(advance, async (c) => {
    if (c.env.KEY_MODE !== "test") {
      throw new Problem(
        "not_found",
        "Test helpers exist on the sandbox only; production orders move by payment and shipping.",
      );
    }
    const order = outcomeValue(await ordersOf(c).moveOrder(c.req.valid("param").id, "advance"));
    c.header("Cache-Control", "no-store");
    return c.json(order, 200);
  });
}
