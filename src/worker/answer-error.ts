/**
 * The app's one answer to an error (its `onError`): a problem+json, whatever threw it. Known
 * refusals keep their code; anything unexpected is logged and becomes a 500 (or a 503 when storage
 * is unavailable), its detail never shown.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { problemOfMiss } from "./catalog/rest-problems";
import { CatalogReadError } from "./catalog/service/errors";
import type { AppEnv } from "./http/context";
import { problemOfHttpException } from "./http/http-exception";
import { Problem, renderProblem } from "./http/problem";
import { answeringOrigin } from "./http/public-origin";
import { storageUnavailable } from "./http/transient";

export function answerError(error: Error, c: Context<AppEnv>): Response {
  const problem = problemOf(error, c.req.header("Content-Type"), c.get("requestId") ?? "req_unknown");
  // Usage counts answers by their code (src/worker/usage/count-usage.ts).
  c.set("problemCode", problem.code);
  return renderProblem(problem, c.get("requestId") ?? "req_unknown", answeringOrigin(c));
}

/** The problem an error is answered with; an unexpected one is logged and becomes a 500 (or 503). */
function problemOf(error: Error, contentType: string | undefined, id: string): Problem {
  if (error instanceof Problem) return error;
  // A miss of the catalog read service, in the REST door's words (catalog/rest-problems.ts).
  if (error instanceof CatalogReadError) return problemOfMiss(error.miss);
  const refused = error instanceof HTTPException ? problemOfHttpException(error, contentType) : null;
  if (refused) return refused;
  console.error(JSON.stringify({ level: "error", request_id: id, message: String(error?.message ?? error) }));
  const unavailable = storageUnavailable(error);
  if (unavailable) return unavailable;
  const status = error instanceof HTTPException ? error.status : 500;
  return new Problem("internal_error", `Something went wrong on our side. Quote request id ${id} when you report it.`, {
    status,
  });
}
