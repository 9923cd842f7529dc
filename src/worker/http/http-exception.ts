/**
 * The HTTPExceptions Hono and @hono/zod-openapi throw for a request they refuse (malformed JSON
 * 400, a body of a media type the route does not declare 415), as problems with their own status:
 * a client's mistake is never reported as our 500.
 */
import type { HTTPException } from "hono/http-exception";
import { Problem, type ProblemCode } from "./problem";

/** Every route body this API declares is JSON; the OAuth forms are read by their own endpoints. */
export const ACCEPTED_BODY_TYPE = "application/json";

/** The statuses Hono's validators and router and zod-openapi's media-type gate throw. */
const CODE_BY_STATUS: Partial<Record<number, ProblemCode>> = {
  400: "bad_request",
  403: "forbidden",
  404: "not_found",
  415: "unsupported_media_type",
};

/** The problem for `error`, or null for a status no client can cause (then it is our fault: 500). */
export function problemOfHttpException(error: HTTPException, contentType: string | undefined): Problem | null {
  const code = CODE_BY_STATUS[error.status];
  if (code === "unsupported_media_type") return unsupportedMediaType(contentType);
  return code ? new Problem(code, `${error.message}.`) : null;
}

function unsupportedMediaType(contentType: string | undefined): Problem {
  const sent = contentType ? `Content-Type ${JSON.stringify(contentType.slice(0, 100))}` : "a body without a Content-Type";
  return new Problem("unsupported_media_type", `This endpoint reads ${ACCEPTED_BODY_TYPE} bodies only, not ${sent}; send JSON with Content-Type: ${ACCEPTED_BODY_TYPE}.`, {
    // RFC 9110 §15.5.16: Accept in a 415 names the media types the request could have used.
    headers: { Accept: ACCEPTED_BODY_TYPE },
  });
}
