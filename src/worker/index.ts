/**
 * The Readiness Catalog API worker: assembles the middleware and route modules into one Hono app.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { registerCatalogRoutes } from "./catalog";
import { bearerSecurity, protect } from "./auth/protect";
import { registerCheeseRoutes } from "./cheeses/route";
import { registerKeyRoutes } from "./keys";
import { registerOperatorRoutes } from "./operator/routes";
import { registerCustomerRoutes } from "./customers/routes";
import { registerOrderRoutes } from "./orders";
import { registerOAuthEndpoints } from "./auth/oauth/routes";
import type { AppEnv } from "./http/context";
import { routeNotFound } from "./http/allowed-methods";
import { limitBodies } from "./http/body-limit";
import { refusePrototypeKeys } from "./http/prototype-keys";
import { publicOrigin } from "./http/public-origin";
import { requestId } from "./http/request-id";
import { bearerApiCors } from "./http/cors";
import { responseHeaders } from "./http/response-headers";
import { accessLog } from "./http/access-log";
import { countUsage } from "./usage/count-usage";
import { registerUsageRoutes } from "./usage/usage-routes";
import { validationProblem } from "./http/validation-problem";
import { checkWorkerEnv } from "./env";
import { registerWebRoutes } from "./web/routes";
import { registerDashboardRoutes } from "./dashboard/routes";
import { registerExploreRoutes } from "./explore/routes";
import { registerDocs } from "./docs/routes";
import { registerWatchesApi } from "./watches";
import { registerWebhookRoutes } from "./webhooks";
import { consumeWebhookBatch } from "./webhooks/consumer";
import { registerMcpRoutes } from "./mcp/route";
import { answerError } from "./answer-error";

const app = new OpenAPIHono<AppEnv>({
  // A request that fails a route's zod schemas becomes one 400 problem listing every issue.
  defaultHook: (result) => {
    if (!result.success) throw validationProblem(result.error, result.target);
  },
});

app.use(requestId());
// Cache-Control and Vary on every answer, CORS on the bearer API (docs/contract.md "Headers").
app.use(responseHeaders());
app.use(bearerApiCors());
// One JSON log line per request (docs/operations.md "Watch it": Workers Logs, wrangler tail).
app.use(accessLog());
// Usage per key (docs/usage.md): counted in the isolate, written in batches after the response.
app.use(countUsage());
// Bindings, vars and secrets checked once per isolate; a deployment mistake is logged by name.
app.use(checkWorkerEnv());
// Only the configured origins (and loopback) are served: issuer and server URLs come from there.
app.use(publicOrigin());
app.use(limitBodies());
// `__proto__` anywhere in a JSON body is refused by name, never silently dropped.
app.use(refusePrototypeKeys());

// OAuth 2.0 (docs/oauth.md): protocol endpoints, then the login + consent pages.
registerOAuthEndpoints(app);
registerWebRoutes(app);
// The dashboard (issue 6): keys, authorized apps, operator approvals; same session as the consent page.
registerDashboardRoutes(app);
// The catalog explorer (docs/explorer.md): the dashboard's session, the query engine server-side.
registerExploreRoutes(app);

// Every catalog route: authenticate → rate limit → read:catalog (src/worker/auth/protect.ts).
registerCatalogRoutes(app, { guard: protect("read:catalog"), security: bearerSecurity("read:catalog") });

// The MCP server for agents (docs/mcp.md): the same catalog, credentials and limits.
registerMcpRoutes(app);

// API keys (docs/authentication.md): self-service /v1/keys, the operator API, the cheeses example.
registerKeyRoutes(app);
registerOperatorRoutes(app);
registerCheeseRoutes(app);
// Customer profiles and orders (docs/orders.md): /v2/customer, /v2/orders.
registerCustomerRoutes(app);
registerOrderRoutes(app);
// Webhooks (docs/webhooks.md): /v1/webhook_endpoints; deliveries go through WEBHOOK_QUEUE (below).
registerWebhookRoutes(app);
// Usage per key (docs/usage.md): /v1/usage, /v1/usage/errors.
registerUsageRoutes(app);
// Watches (docs/history.md "Watches"): /v1/watches, evaluated at each publish and rollback.
registerWatchesApi(app);

// /openapi.json, the reference at /docs and the error codes at /docs/errors.
registerDocs(app);

// No route: 404, or 405 with Allow where the path is served by other methods (src/worker/http/allowed-methods.ts).
app.notFound(routeNotFound(app));

app.onError(answerError);

/** The app answers HTTP; its `queue` handler takes WEBHOOK_QUEUE's batches (the webhook consumer). */
export default Object.assign(app, {
  queue: (batch: MessageBatch, env: Env) => consumeWebhookBatch(batch, env),
});

// Durable Object classes (wrangler.toml [[durable_objects.bindings]]): accounts, the email index, subject guards, webhooks.
export { AccountDirectory } from "./auth/account-directory";
export { AccountObject } from "./account/account-object";
export { SubjectGuard } from "./limits/subject-guard";
export { WebhookStore } from "./webhooks/webhook-store";
