/** What every watch route shares: its scope guard, its security, its tag and its 404. */
import type { z } from "@hono/zod-openapi";
import { bearerSecurity, protect } from "../auth/protect";
import type { Scope } from "../../common/auth/scopes";
import { noEntityTags } from "../http/preconditions";
import { Problem } from "../http/problem";
import { type ParameterError, queryProblem } from "../http/query-problem";
import { rejectUnknownQuery } from "../http/strict-query";
import { validationProblem } from "../http/validation-problem";
import { WATCH_ID_PATTERN } from "./schemas";

export const watchRouteOf = (scope: Scope) => ({
  tags: ["Watches"],
  middleware: [protect(scope), noEntityTags()],
  security: bearerSecurity(scope),
});

export const watchNotFound = (id: string) =>
  new Problem("watch_not_found", `No watch ${JSON.stringify(id.slice(0, 80))} on this account.`);

/** A well-formed watch id, or its 404: an id of another form names no watch. */
export function checkedWatchId(id: string): string {
  if (!WATCH_ID_PATTERN.test(id)) throw watchNotFound(id);
  return id;
}

/**
 * The 400 of a watch body: when only its `query` is refused, exactly the problem GET /v1/profiles
 * answers to that query string; otherwise one `bad_request` listing every problem (the query's
 * each as `query.<parameter>`).
 */
export function watchBodyHook(result: { success: boolean; target: string; error?: unknown }): undefined {
  if (result.success) return undefined;
  rejectUnknownQuery(result);
  const error = result.error as z.ZodError;
  if (result.target === "json") {
    const queryErrors = error.issues.map((issue) => (issue as { params?: { error?: ParameterError } }).params?.error);
    const only = queryErrors.filter((entry) => entry !== undefined);
    if (only.length > 0 && only.length === queryErrors.length) throw queryProblem(only);
  }
  throw validationProblem(error, result.target);
}
