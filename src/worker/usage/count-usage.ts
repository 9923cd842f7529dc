/**
 * `countUsage()`: the app-wide middleware that hands every answered request that authenticated as
 * a key or an OAuth grant to the isolate's usage counter (usage-meter.ts), and every request refused
 * for its credentials before authentication as the deployment's. Dashboard and explorer requests
 * (a signed-in session, no credential) are not counted. It reads what the access log reads: the
 * principal, the route template, the status, and the problem's code that `onError` noted.
 */
import type { Context, MiddlewareHandler } from "hono";
import { routeOf } from "../http/access-log";
import type { AppEnv } from "../http/context";
import { workerEnv } from "../env";
import { UsageMeter } from "./usage-meter";
import type { UsageEntry } from "./usage-tally";

/** This isolate's counts, for every key it serves. */
const meter = new UsageMeter();

export function countUsage(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const principal = c.get("principal");
    if (!principal && !c.get("authRefused")) return;
    const entry: UsageEntry = {
      subject: principal?.subject ?? "",
      accountId: principal?.accountId ?? "",
      at: Date.now(),
      status: c.res.status,
      code: c.get("problemCode") ?? "",
      route: templateOf(routeOf(c)),
      bytes: await bodyBytes(c),
      requestId: c.get("requestId"),
      method: c.req.method,
    };
    meter.count(entry, {
      db: c.env.CATALOG_DB,
      waitUntil: (work) => c.executionCtx.waitUntil(work),
      delayMs: workerEnv(c.env).USAGE_BATCH_MS,
    });
  };
}

/** `/v1/profiles/:product/:funnel` as OpenAPI writes it, `/v1/profiles/{product}/{funnel}`. */
const templateOf = (route: string | null) => (route ?? "").replaceAll(/:(\w+)/g, "{$1}");

/**
 * The answer's body size: its Content-Length when declared. A JSON answer built in memory (which
 * declares none until it is sent) is read once into bytes, so it is sent with its length; another
 * stream of unknown length counts 0 (docs/usage.md).
 */
async function bodyBytes(c: Context<AppEnv>): Promise<number> {
  const declared = c.res.headers.get("Content-Length");
  if (declared !== null) return Number(declared) || 0;
  if (c.res.body === null || !/json/.test(c.res.headers.get("Content-Type") ?? "")) return 0;
  const bytes = await c.res.arrayBuffer();
  c.res = new Response(bytes, c.res);
  return bytes.byteLength;
}
