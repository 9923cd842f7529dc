/**
 * The client's typed errors. Branch on `code` (the API's stable problem code, README "Errors"),
 * never on the message. A cancelled call rejects with the signal's reason instead: the platform's
 * `AbortError` DOMException unless the caller aborted with a reason of its own.
 */

/** A request that failed for good: a final status (any 4xx but the retried 429) or retries exhausted. */
export class CatalogApiError extends Error {
  override readonly name = "CatalogApiError";

  constructor(
    message: string,
    readonly url: string,
    /** The HTTP status of the last answer; null when none came (a network failure). */
    readonly status: number | null,
    /** The problem's `code` (e.g. `invalid_api_key`), when the answer was problem+json. */
    readonly code: string | null,
    /** The problem's `detail`: a sentence for people, not for branching. */
    readonly detail: string | null,
    /** The `Request-Id` to quote when reporting a problem. */
    readonly requestId: string | null,
    /** Seconds the last 429 or 503 asked to wait (Retry-After), e.g. longer than the client waits. */
    readonly retryAfter: number | null,
  ) {
    super(message);
  }
}

/** The server sent something that does not match what it promised (a digest, a header, the layout). */
export class CatalogVerificationError extends Error {
  override readonly name = "CatalogVerificationError";
}
