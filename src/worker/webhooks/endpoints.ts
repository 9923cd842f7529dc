/**
 * POST and GET /v1/webhook_endpoints: register an endpoint (its signing secret in this answer only)
 * and list the account's endpoints. API keys and OAuth tokens with `manage:webhooks`.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { outcomeValue } from "../auth/accounts";
import { bearerSecurity, protect } from "../auth/protect";
import type { Scope } from "../../common/auth/scopes";
import { workerEnv } from "../env";
import type { AppEnv } from "../http/context";
import { problemResponses } from "../http/openapi-responses";
import { noEntityTags } from "../http/preconditions";
import { Problem } from "../http/problem";
import { NO_QUERY } from "../http/strict-query";
import { DEFAULT_EVENT_TYPES } from "./events";
import { listPage } from "../http/list-page";
import { isAfter, nextPageUrl, openKeyset } from "./list-paging";
import { CreateEndpointBody, ENDPOINT_LIST_URL, EndpointList, EndpointListQuery } from "./schemas";
import { webhookStore } from "./store-access";
import { targetUrlProblems } from "../http/outbound/target-url";
import { CreatedWebhookEndpoint } from "./views";

export const WEBHOOK_SCOPE: Scope = "manage:webhooks";
export const webhookGuard = () => [protect(WEBHOOK_SCOPE), noEntityTags()];
export const webhookSecurity = () => bearerSecurity(WEBHOOK_SCOPE);
const TAGS = ["Webhooks"];

const create = createRoute({
  method: "post",
  path: ENDPOINT_LIST_URL,
  operationId: "createWebhookEndpoint",
  tags: TAGS,
  summary: "Register a webhook endpoint",
  description:
    "Returns the endpoint with its signing secret (`whsec_…`) once. At most 5 per account. Deliveries follow Standard Webhooks (docs/webhooks.md).",
  middleware: webhookGuard(),
  security: webhookSecurity(),
  request: {
    query: NO_QUERY,
    body: { required: true, content: { "application/json": { schema: CreateEndpointBody } } },
  },
  responses: {
    201: {
      description: "The endpoint, with its secret (shown once).",
      content: { "application/json": { schema: CreatedWebhookEndpoint } },
    },
    ...problemResponses(
      "bad_request",
      "webhook_endpoint_limit_reached",
      "precondition_failed",
      "content_too_large",
      "unsupported_media_type",
    ),
  },
});

const list = createRoute({
  method: "get",
  path: ENDPOINT_LIST_URL,
  operationId: "listWebhookEndpoints",
  tags: TAGS,
  summary: "List the account's webhook endpoints",
  middleware: webhookGuard(),
  security: webhookSecurity(),
  request: { query: EndpointListQuery },
  responses: {
    200: { description: "The endpoints (no secrets).", content: { "application/json": { schema: EndpointList } } },
    ...problemResponses("bad_request", "precondition_failed"),
  },
});

export function registerEndpointListRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(create, async (c) => {
    const body = c.req.valid("json");
    const allowLoopback = workerEnv(c.env).WEBHOOK_LOCAL_TARGETS === "loopback";
    const problems = targetUrlProblems(body.url, { allowLoopback });
    if (problems.length > 0) {
      const errors = problems.map((message) => ({ path: "url", message, code: "bad_request" as const }));
      throw new Problem("bad_request", `url: ${problems.join("; ")}`, { extra: { errors } });
    }
    const created = outcomeValue(
      await webhookStore(c.env).createEndpoint(c.get("principal").accountId, {
        url: body.url,
        events: body.events ?? [...DEFAULT_EVENT_TYPES],
      }),
    );
    c.header("Cache-Control", "no-store");
    return c.json({ ...created.endpoint, secret: created.secret }, 201);
  });

  app.openapi(list, async (c) => {
    const { limit, cursor } = c.req.valid("query");
    const { accountId } = c.get("principal");
    const after = cursor === undefined ? undefined : await openKeyset(c.env, "webhook-endpoints", accountId, cursor);
    // Few (MAX_ENDPOINTS_PER_ACCOUNT): paged here, past the last endpoint of the previous page.
    const endpoints = (await webhookStore(c.env).listEndpoints(accountId)).filter(
      (endpoint) => !after || isAfter(endpoint, after),
    );
    const data = endpoints.slice(0, limit);
    const more = endpoints.length > limit;
    const next = await nextPageUrl(c.env, "webhook-endpoints", accountId, {
      path: ENDPOINT_LIST_URL,
      limit,
      last: data.at(-1),
      more,
    });
    c.header("Cache-Control", "private, no-store");
    return c.json(listPage(data, next, { url: ENDPOINT_LIST_URL }), 200);
  });
}
