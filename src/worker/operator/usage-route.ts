/**
 * GET /operator/v1/usage?from&to&granularity[&account]: the deployment's usage for the operator
 * (docs/operations.md "Usage"): totals and series, refusals before authentication by status and
 * code, and the top 20 accounts and keys by requests and by errors; with `account`, that account's.
 * The same ranges and the same one 400 for every problem as GET /v1/usage.
 */
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { ACCOUNT_ID_PATTERN } from "../../common/auth/ids";
import type { AppEnv } from "../http/context";
import { parameterErrors, queryProblem } from "../http/query-problem";
import { strictQuery } from "../http/strict-query";
import { operatorUsage } from "../usage/operator-reads";
import { UsageQuery } from "../usage/usage-schemas";
import { usageWindow, windowErrorsOfRaw } from "../usage/usage-window";
import { ACCOUNT_ID_RULE, OPERATOR_BASE, operatorRoute } from "./route";

const OperatorUsageQuery = strictQuery({
  from: UsageQuery.shape.from,
  to: UsageQuery.shape.to,
  granularity: UsageQuery.shape.granularity,
  account: z.string().regex(ACCOUNT_ID_PATTERN, ACCOUNT_ID_RULE).optional(),
});

export function registerOperatorUsage(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    operatorRoute({ method: "get", path: `${OPERATOR_BASE}/usage`, request: { query: OperatorUsageQuery } }),
    async (c) => {
      const query = c.req.valid("query");
      const window = usageWindow(query, Date.now());
      if (Array.isArray(window)) throw queryProblem(window);
      const usage = await operatorUsage(c.env.CATALOG_DB, window, query.account);
      return c.json({
        object: "operator_usage",
        deployment: c.env.DEPLOYMENT,
        from: new Date(window.start).toISOString(),
        to: new Date(window.end).toISOString(),
        granularity: window.granularity,
        account_id: query.account ?? null,
        ...usage,
      });
    },
    (result, c) => {
      if (!result.success)
        throw queryProblem([...parameterErrors(result.error), ...windowErrorsOfRaw(c.req.query(), Date.now())]);
    },
  );
}
