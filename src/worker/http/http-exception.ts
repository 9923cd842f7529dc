/**
 * The HTTPExceptions Hono and @hono/zod-openapi throw for a request they refuse (malformed JSON
 * 400, a body of a media type the route does not declare 415), as problems with their own status:
 * a client's mistake is never reported as our 500. A 4xx status no code names keeps its status
 * under the generic `bad_request`; a 5xx is ours (src/worker/index.ts logs it as an internal error).
 */
import type { HTTPException } from "hono/http-exception";
import { Problem } from "./problem";
import type { ProblemCode } from "./problem-types";

/** Every route body this API declares is JSON; the OAuth forms are read by their own endpoints. */
export const ACCEPTED_BODY_TYPE = "application/json";

/** Client-error statuses with a code of their own that needs no header an HTTPException lacks. */
const CODE_BY_STATUS: Partial<Record<number, ProblemCode>> = {
  400: "bad_request",
  403: "forbidden",
  404: "not_found",
  412: "precondition_failed",
  413: "content_too_large",
  415: "unsupported_media_type",
};

/** The problem for `error`, with its status; null for a 5xx (our fault: an internal error of that status). */
export function problemOfHttpException(error: HTTPException, contentType: string | undefined): Problem | null {
  if (error.status >= 500) return null;
  const code = CODE_BY_STATUS[error.status] ?? "bad_request";
  if (code === "unsupported_media_type") return unsupportedMediaType(contentType);
  // RFC 9457 §3.1.2: `status` is the response's own status code.
  return new Problem(code, `${error.message}.`, { status: error.status });
}

function unsupportedMediaType(contentType: string | undefined): Problem {
  const sent = contentType
    ? `Content-Type ${JSON.stringify(contentType.slice(0, 100))}`
    : "a body without a Content-Type";
  return new Problem(
    "unsupported_media_type",
    `This endpoint reads JSON bodies only, not ${sent}; send JSON with Content-Type: ${ACCEPTED_BODY_TYPE}.`,
    {
      // RFC 9110 §15.5.16: Accept in a 415 names the media types the request could have used.
      headers: { Accept: ACCEPTED_BODY_TYPE },
    },
  );
}
