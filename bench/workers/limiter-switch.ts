/**
 * Bench-only worker (never deployed; `npm run bench` runs it under a generated copy of wrangler.toml
 * whose `main` points here): the catalog routes twice, identical but for the per-key rate limiter,
 * so the limiter's cost per request is one difference measured in one isolate.
 * - default: authenticate → rateLimit → read:catalog, exactly what src/worker/index.ts runs;
 * - with `Bench-Limiter: off`: authenticate → read:catalog;
 * - with `Bench-Usage: on`: the default plus the usage counter (src/worker/usage/count-usage.ts), as
 *   src/worker/index.ts runs it, so its cost is the difference from the default in the same rounds;
 * - with `Bench-Guard-Delay-Ms: n`: every SubjectGuard is n ms of round trip away (far-guard.ts).
 * It keeps the real worker's name and Durable Object classes, so it reads the same persisted keys,
 * key guards and releases.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { every } from "hono/combine";
import type { MiddlewareHandler } from "hono";
import { authenticate } from "../../src/worker/auth/authenticate";
import { bearerSecurity, protect } from "../../src/worker/auth/protect";
import { requireScope } from "../../src/worker/auth/require-scope";
import { registerCatalogRoutes } from "../../src/worker/catalog";
import type { AppEnv } from "../../src/worker/http/context";
import { Problem, renderProblem } from "../../src/worker/http/problem";
import { requestId } from "../../src/worker/http/request-id";
import { countUsage } from "../../src/worker/usage/count-usage";
import { bindingsFor } from "./far-guard";

const LIMITER_SWITCH_HEADER = "Bench-Limiter";
const USAGE_SWITCH_HEADER = "Bench-Usage";

function catalogApp(guard: MiddlewareHandler<AppEnv>, options: { usage?: boolean } = {}) {
  const app = new OpenAPIHono<AppEnv>();
  app.use(requestId());
  if (options.usage) app.use(countUsage());
  registerCatalogRoutes(app, { guard, security: bearerSecurity("read:catalog") });
  app.onError((error, c) => {
    if (error instanceof Problem) return renderProblem(error, c.get("requestId"), new URL(c.req.url).origin);
    throw error;
  });
  return app;
}

const withLimiter = catalogApp(protect("read:catalog"));
const withUsage = catalogApp(protect("read:catalog"), { usage: true });
const withoutLimiter = catalogApp(every(authenticate(), requireScope("read:catalog")));

export default {
  fetch(request, env, ctx) {
    const app =
      request.headers.get(LIMITER_SWITCH_HEADER) === "off"
        ? withoutLimiter
        : request.headers.get(USAGE_SWITCH_HEADER) === "on"
          ? withUsage
          : withLimiter;
    return app.fetch(request, bindingsFor(request, env), ctx);
  },
} satisfies ExportedHandler<Env>;

export { AccountDirectory } from "../../src/worker/auth/account-directory";
export { AccountObject } from "../../src/worker/account/account-object";
export { SubjectGuard } from "../../src/worker/limits/subject-guard";
export { WebhookStore } from "../../src/worker/webhooks/webhook-store";
