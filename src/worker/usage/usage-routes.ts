/**
 * GET /v1/usage and GET /v1/usage/errors (docs/contract.md "Usage", scope `read:usage`): the
 * calling credential's account's usage, whole or of one of its keys, and its recent errors. Every
 * parameter problem is one 400 listing them all; another account's key is a 404.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { bearerSecurity, protect } from "../auth/protect";
import type { AppEnv } from "../http/context";
import { problemResponses, RATE_LIMIT_HEADERS } from "../http/openapi-responses";
import { noEntityTags } from "../http/preconditions";
import { Problem } from "../http/problem";
import { listPage } from "../http/list-page";
import { parameterErrors, queryProblem } from "../http/query-problem";
import { KEY_ID_PATTERN } from "../../common/auth/ids";
import { errorsCursor, openErrorsCursor } from "./usage-cursor";
import { type ErrorPlace, recentErrors, usageReport, type UsageScope } from "./usage-reads";
import { Usage, UsageErrorList, UsageErrorsQuery, UsageQuery } from "./usage-schemas";
import { usageWindow, windowErrorsOfRaw } from "./usage-window";

const guard = () => [protect("read:usage"), noEntityTags()];

const usageRoute = createRoute({
  tags: ["Usage"],
  middleware: guard(),
  security: bearerSecurity("read:usage"),
  method: "get",
  path: "/v1/usage",
  operationId: "getUsage",
  summary: "Requests, errors and 429s of the account or one key, per hour or day",
  description:
    "Totals by status and problem code, response bytes, and one series point per hour or day of the range, zeros included. " +
    "Counted within 60 s of each answer. Every problem of the query is one 400.",
  request: { query: UsageQuery },
  responses: {
    200: {
      description: "The usage.",
      headers: RATE_LIMIT_HEADERS,
      content: { "application/json": { schema: Usage } },
    },
    ...problemResponses("bad_request", "key_not_found", "precondition_failed"),
  },
});

const errorsRoute = createRoute({
  tags: ["Usage"],
  middleware: guard(),
  security: bearerSecurity("read:usage"),
  method: "get",
  path: "/v1/usage/errors",
  operationId: "listUsageErrors",
  summary: "The most recent error answers of the account or one key, newest first",
  description: "The last 100 answers with status ≥ 400 are kept per key; quote a `request_id` when you report one.",
  request: { query: UsageErrorsQuery },
  responses: {
    200: {
      description: "The errors.",
      headers: RATE_LIMIT_HEADERS,
      content: { "application/json": { schema: UsageErrorList } },
    },
    ...problemResponses("bad_request", "invalid_cursor", "key_not_found", "precondition_failed"),
  },
});

export function registerUsageRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    usageRoute,
    async (c) => {
      const query = c.req.valid("query");
      const window = usageWindow(query, Date.now());
      if (Array.isArray(window)) throw queryProblem(window);
      const scope = await scopeOf(c, query.key);
      const report = await usageReport(c.env.CATALOG_DB, scope, window);
      c.header("Cache-Control", "private, no-store");
      return c.json(
        {
          object: "usage" as const,
          from: new Date(window.start).toISOString(),
          to: new Date(window.end).toISOString(),
          granularity: window.granularity,
          key_id: query.key ?? null,
          ...report,
        },
        200,
      );
    },
    (result, c) => {
      // Every problem at once: the parameters' own, and the range's when its parts are valid.
      if (!result.success)
        throw queryProblem([...parameterErrors(result.error), ...windowErrorsOfRaw(c.req.query(), Date.now())]);
    },
  );
  app.openapi(errorsRoute, async (c) => {
    const { key, limit, cursor } = c.req.valid("query");
    const after = cursor === undefined ? undefined : await openErrorsCursor(c.env, key, cursor);
    const scope = await scopeOf(c, key);
    const page = await recentErrors(c.env.CATALOG_DB, scope, { limit, after });
    const next = page.more && page.last ? await nextPage(c.env, key, limit, page.last) : null;
    c.header("Cache-Control", "private, no-store");
    return c.json(listPage(page.errors, next), 200);
  });
}

/** The next page's URL: the same key and limit, from after the last error shown. */
async function nextPage(env: Env, key: string | undefined, limit: number, last: ErrorPlace): Promise<string> {
  const query = new URLSearchParams(key === undefined ? {} : { key });
  query.set("limit", String(limit));
  query.set("cursor", await errorsCursor(env, key, last));
  return `/v1/usage/errors?${query}`;
}

/** The account's rows, or one key's: a key of another account (or none) is a 404, never a hint. */
async function scopeOf(c: Context<AppEnv>, keyId: string | undefined): Promise<UsageScope> {
  const { accountId } = c.get("principal");
  if (keyId === undefined) return { accountId };
  const owner = KEY_ID_PATTERN.test(keyId) ? (await c.env.SUBJECT_GUARDS.getByName(keyId).describe()).owner : null;
  if (owner !== accountId) throw new Problem("key_not_found", `No key ${keyId.slice(0, 100)} on this account.`);
  return { accountId, subject: keyId };
}
