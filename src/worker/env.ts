/**
 * The Worker's environment (wrangler.toml bindings and [vars], and the secrets), checked against
 * one zod schema once per env object, which the runtime keeps for the isolate's life. A deployment
 * mistake, such as a malformed RATE_LIMITS or a missing binding, is reported naming the binding,
 * instead of surfacing as an obscure failure wherever a request first touches it. Such a request
 * gets a 500 `internal_error` (no client input causes it); the log line names what to fix.
 * Secrets are optional here: without one, the feature it opens stays closed (operator-auth.ts,
 * token-key.ts say how).
 */
import { z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { KEY_MODES } from "../common/auth/api-key";
import { EDGE_ADDRESS_SOURCE, LOCAL_ADDRESS } from "./limits/ip-throttle";
import { RateLimitsVar } from "./limits/policy";
import type { AppEnv } from "./http/context";

/** A binding is an object with the method this code calls on it. */
const binding = (kind: string, method: string) =>
  z.custom<object>(
    (value) => typeof (value as Record<string, unknown> | null)?.[method] === "function",
    `is not a ${kind} binding (wrangler.toml)`,
  );

const kv = binding("KV namespace", "get");
const durableObject = binding("Durable Object namespace", "getByName");
const rateLimiter = binding("rate limiting", "limit");

const WorkerEnvSchema = z.looseObject({
  DEPLOYMENT: z.enum(["production", "sandbox"]),
  KEY_MODE: z.enum(KEY_MODES),
  PUBLIC_ORIGINS: z.union([z.string(), z.array(z.url())]).optional(),
  RATE_LIMITS: RateLimitsVar.optional(),
  CLIENT_ADDRESS_SOURCE: z.enum([EDGE_ADDRESS_SOURCE, LOCAL_ADDRESS]).optional(),
  // Local development only (src/node/local/wrangler-dev.ts, the tests): webhooks may target, and OAuth
  // client metadata documents may be at, http://127.0.0.1 (src/worker/http/outbound/target-url.ts).
  WEBHOOK_LOCAL_TARGETS: z.literal("loopback").optional(),
  // Usage batching (src/worker/usage/usage-meter.ts): ms waited before a write, default 1000; the tests set 0.
  USAGE_BATCH_MS: z.number().int().min(0).max(10_000).optional(),
  OPERATOR_SECRET: z.string().optional(),
  OAUTH_TOKEN_KEY: z.string().optional(),
  OAUTH_TOKEN_KEY_PREVIOUS: z.string().optional(),
  // Authenticates list cursors (src/worker/http/cursor.ts); read there, where a page is sealed.
  CURSOR_KEY: z.string().optional(),
  CATALOG_KV: kv,
  OAUTH_KV: kv,
  AUTH_KV: kv,
  RELEASES: binding("R2 bucket", "head"),
  CATALOG_DB: binding("D1 database", "withSession"),
  ACCOUNTS: durableObject,
  ACCOUNT_DIRECTORY: durableObject,
  SUBJECT_GUARDS: durableObject,
  WEBHOOKS: durableObject,
  WEBHOOK_QUEUE: binding("Queue producer", "send"),
  AUTH_FAILURE_LIMITER: rateLimiter,
  SIGN_IN_LIMITER: rateLimiter,
  ASSETS: binding("static assets", "fetch"),
});
export type WorkerEnv = z.infer<typeof WorkerEnvSchema>;

export class InvalidWorkerEnv extends Error {}

const checked = new WeakMap<object, WorkerEnv | InvalidWorkerEnv>();

/** The checked environment; throws InvalidWorkerEnv naming every binding that is wrong. */
export function workerEnv(env: Env): WorkerEnv {
  let result = checked.get(env);
  if (!result) {
    const parsed = WorkerEnvSchema.safeParse(env);
    result = parsed.success
      ? parsed.data
      : new InvalidWorkerEnv(`The Worker's environment is invalid: ${describe(parsed.error)}`);
    checked.set(env, result);
  }
  if (result instanceof InvalidWorkerEnv) throw result;
  return result;
}

/** First on every request: an invalid environment answers nothing but the internal error. */
export function checkWorkerEnv(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    workerEnv(c.env);
    await next();
  };
}

const describe = (error: z.ZodError) =>
  error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`).join("; ");
