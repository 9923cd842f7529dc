/**
 * The one list of problem codes (RFC 9457 `type`s): each code's status, title, explanation and the
 * headers it always carries. /openapi.json, the /docs/errors page and the README's Errors table are
 * all checked against it; problem.ts turns a code into a response.
 */
/** Response headers a problem of that code always carries (besides Request-Id and Cache-Control). */
export type ProblemHeader = "WWW-Authenticate" | "Retry-After" | "Allow" | "Accept" | "Content-Range";

interface ProblemType {
  status: number;
  title: string;
  /** What happened and what to do, in a sentence or two: the /docs/errors page shows it. */
  explanation: string;
  headers?: readonly ProblemHeader[];
}

const AUTH_CHALLENGE = ["WWW-Authenticate"] as const;
const RETRY = ["Retry-After"] as const;

export const PROBLEM_TYPES = {
  bad_request: {
    status: 400,
    title: "Bad request",
    explanation:
      "A JSON body or form failed validation, or the JSON does not parse. `errors` lists each field once (`path`, `message`, `code`); the detail names the field and the rule; fix that field.",
  },
  unknown_parameter: {
    status: 400,
    title: "Unknown query parameter",
    explanation:
      "The request names a query parameter the route does not take (a typo, or a filter that does not exist); `errors` lists each one (`parameter`, `message`), then any other problem of the query, and the message says which parameters the route accepts. Remove it: unknown parameters are refused, never ignored.",
  },
  invalid_release_id: {
    status: 400,
    title: "Invalid release id",
    explanation:
      "A release id is `sha256:` followed by 64 lowercase hex digits (or the bare digits). Copy it from `GET /v1/releases/current`.",
  },
  invalid_part_number: {
    status: 400,
    title: "Invalid part number",
    explanation:
      "A part number is a decimal integer ≥ 0 without leading zeros. A release's parts are 0 … count-1 (see `Catalog-Part`).",
  },
  invalid_profile_id: {
    status: 400,
    title: "Invalid profile id",
    explanation:
      "A profile id is `arp_` followed by 26 lowercase letters or digits. Copy it from the catalog or a product listing.",
  },
  invalid_scope_key: {
    status: 400,
    title: "Invalid product or funnel key",
    explanation:
      "A product or funnel key (or a listing's `after`) is lowercase words joined by hyphens, as in `zurich-ledger-api`.",
  },
  invalid_parameter: {
    status: 400,
    title: "Invalid query parameter",
    explanation:
      "A query parameter's value is not allowed: an unknown value (`allowed` lists the valid ones), a malformed or impossible date, `limit` out of range or not in decimal digits, too many values, or a parameter given twice. `errors[]` lists every problem, one entry per parameter, as `{parameter, path, message, code, allowed?}`.",
  },
  invalid_cursor: {
    status: 400,
    title: "Invalid cursor",
    explanation:
      "The cursor (`cursor`, `after`, `starting_after` or `ending_before`) was not handed out by this list for this query: made by hand, changed, used with other filters or another sort, or on another list or release. Follow the `next` URL (or MCP `next_cursor`) of the previous page as it is, or start again without a cursor.",
  },
  wrong_key_mode: {
    status: 400,
    title: "Key mode not available on this deployment",
    explanation:
      "`POST /v1/keys` asked for the other deployment's mode: production creates live keys, the sandbox test keys.",
  },
  unknown_host: {
    status: 400,
    title: "Unknown host",
    explanation:
      "The request's origin is not one this deployment answers at (a forged Host, plain http, another port). Send it to the origin the detail names.",
  },
  unauthenticated: {
    status: 401,
    title: "Authentication required",
    explanation: "No `Authorization` header, or an empty one. Send `Authorization: Bearer <API key or access token>`.",
    headers: AUTH_CHALLENGE,
  },
  invalid_authorization_header: {
    status: 401,
    title: "Malformed Authorization header",
    explanation:
      "The header is not exactly `Bearer <credential>`: another scheme, extra spaces, two credentials, non-ASCII, over 512 characters. The detail says which.",
    headers: AUTH_CHALLENGE,
  },
  invalid_api_key: {
    status: 401,
    title: "Invalid API key",
    explanation:
      "An `sk_` key with a wrong prefix, length, character or checksum, or a well-formed key this deployment does not know. Copy the whole key again.",
    headers: AUTH_CHALLENGE,
  },
  invalid_token: {
    status: 401,
    title: "Invalid access token",
    explanation:
      "An OAuth access token that is unknown, expired, revoked or from another deployment. Refresh it, or authorize again.",
    headers: AUTH_CHALLENGE,
  },
  wrong_deployment: {
    status: 401,
    title: "Key not valid on this deployment",
    explanation:
      "A test key sent to production, or a live key to the sandbox. Use a live key on production and a test key on the sandbox.",
    headers: AUTH_CHALLENGE,
  },
  revoked_api_key: {
    status: 401,
    title: "API key revoked",
    explanation: "The key was revoked; it is refused from the very next request. Use another active key.",
    headers: AUTH_CHALLENGE,
  },
  insufficient_scope: {
    status: 403,
    title: "Insufficient scope",
    explanation:
      "The credential is valid but lacks the scope the route needs; `required_scope` and the `WWW-Authenticate` challenge name it. Use a credential with that scope.",
    headers: AUTH_CHALLENGE,
  },
  forbidden: {
    status: 403,
    title: "Forbidden",
    explanation: "`/v1/keys` was called with an OAuth access token. Keys are managed with an API key of the account.",
  },
  admin_not_approved: {
    status: 403,
    title: "Admin scope not approved",
    explanation: "A key with the `admin` scope was asked for before an operator approved `admin` for the account.",
  },
  key_not_manageable: {
    status: 403,
    title: "Key outside this key's authority",
    explanation:
      "`DELETE /v1/keys/{id}` of a key with scopes the calling key lacks. Revoke it with a key that has at least its scopes.",
  },
  not_found: {
    status: 404,
    title: "Not found",
    explanation: "No route answers this path (the detail repeats method and path). See `/docs` for every route.",
  },
  release_not_found: {
    status: 404,
    title: "Release not found",
    explanation: "No such release is kept on this deployment. `GET /v1/releases/current` names the current one.",
  },
  part_not_found: {
    status: 404,
    title: "Part not found",
    explanation: "The part number is past the release's last part; the detail gives the range.",
  },
  profile_not_found: {
    status: 404,
    title: "Profile not found",
    explanation:
      "The release named in the detail has no profile with this scope or id. Check the keys, or list the product's profiles.",
  },
  release_gone: {
    status: 410,
    title: "Release no longer kept",
    explanation:
      "`since` names a release this deployment no longer keeps (or never published), so the changes since it cannot be listed. " +
      "The detail and `oldest_kept_release_id` name the oldest kept release; download the whole current document instead.",
  },
  release_not_indexed: {
    status: 404,
    title: "Release has no profile index",
    explanation:
      "The release was published before profile indexes existed. Publish its build again to add the index; whole-document and part routes still serve it.",
  },
  release_not_queryable: {
    status: 404,
    title: "Release not loaded for queries",
    explanation:
      "The release has no query rows: it was published before queries existed, or it is no longer kept (the current release and the 5 before it are). Publish its build again; single lookups, parts and the document still serve it.",
  },
  account_not_found: {
    status: 404,
    title: "Account not found",
    explanation: "No such account on this deployment (operator API).",
  },
  key_not_found: {
    status: 404,
    title: "API key not found",
    explanation: "No key with this id on the calling key's account (or, on the operator API, on this deployment).",
  },
  webhook_endpoint_not_found: {
    status: 404,
    title: "Webhook endpoint not found",
    explanation: "No webhook endpoint with this id on the calling account (and deployment).",
  },
  watch_not_found: {
    status: 404,
    title: "Watch not found",
    explanation: "No watch with this id on the calling account (and deployment).",
  },
  watch_event_not_found: {
    status: 404,
    title: "Watch event not found",
    explanation: "The watch has no event with this id (it may be older than the events kept, or of another watch).",
  },
  admin_request_not_found: {
    status: 404,
    title: "Admin request not found",
    explanation: "No OAuth admin request is waiting for this account and client (never made, or rejected).",
  },
  order_not_found: {
    status: 404,
    title: "Order not found",
    explanation:
      "The customer the credential acts for has no order with this id on this deployment (another customer's order, or a sandbox order asked on production, is not found either).",
  },
  method_not_allowed: {
    status: 405,
    title: "Method not allowed",
    explanation:
      "The path exists, but not with this method. `Allow` lists the methods it answers; `OPTIONS` on the path answers 204 with the same list.",
    headers: ["Allow"],
  },
  key_limit_reached: {
    status: 409,
    title: "Active key limit reached",
    explanation: "The account already has 3 active keys on this deployment. Revoke one first.",
  },
  webhook_endpoint_limit_reached: {
    status: 409,
    title: "Webhook endpoint limit reached",
    explanation: "The account already has 5 webhook endpoints on this deployment. Delete one first.",
  },
  webhook_endpoint_disabled: {
    status: 409,
    title: "Webhook endpoint disabled",
    explanation:
      "The endpoint was disabled after a delivery failed every attempt; nothing is sent to it. Delete it and register it again.",
  },
  watch_limit_reached: {
    status: 409,
    title: "Watch limit reached",
    explanation: "The account already has 50 watches on this deployment. Delete one first.",
  },
  account_exists: {
    status: 409,
    title: "Account already exists",
    explanation: "An account with this email or id is already registered (operator API).",
  },
  admin_request_decided: {
    status: 409,
    title: "Admin request already decided",
    explanation: "The OAuth admin request was already approved; nothing changed.",
  },
  idempotency_key_reused: {
    status: 409,
    title: "Idempotency key reused",
    explanation:
      "The `Idempotency-Key` was sent in the last 24 hours with a different request (method, path or body). A retry must repeat the request exactly; a new order needs a new key.",
  },
  invalid_state_transition: {
    status: 409,
    title: "Invalid state transition",
    explanation:
      "The order's status does not allow this: cancel only while `pending` or `paid`, advance only from `pending` or `paid`. The detail gives the status; nothing was changed.",
  },
  admin_request_pending: {
    status: 409,
    title: "Admin request not approved",
    explanation: "The OAuth admin request is still waiting, so there is no approval to withdraw; reject it instead.",
  },
  changes_too_large: {
    status: 409,
    title: "Changes larger than the document",
    explanation:
      "`GET /v1/releases/{id}/changes/profiles`: the profiles added or changed since `since` are more than half of the release's document, so their bytes are not kept. Download the document.",
  },
  precondition_failed: {
    status: 412,
    title: "Precondition failed",
    explanation:
      "`If-Match` names no tag of the current representation (the detail gives its `ETag`), or lists tags on a route that sends no `ETag`. Nothing was changed.",
  },
  content_too_large: {
    status: 413,
    title: "Content too large",
    explanation: "The request body is over 64 KiB; no request needs more. It was refused before it was read.",
  },
  unsupported_media_type: {
    status: 415,
    title: "Unsupported media type",
    explanation: "The body is not `application/json`; the `Accept` header names the type to send. Nothing was changed.",
    headers: ["Accept"],
  },
  range_not_satisfiable: {
    status: 416,
    title: "Range not satisfiable",
    explanation:
      "The `Range` starts past the end or is malformed (a request for several ranges is answered 200 with the whole body instead). `Content-Range: bytes */<size>` gives the size.",
    headers: ["Content-Range"],
  },
  rate_limited: {
    status: 429,
    title: "Too many requests",
    explanation:
      "Over the key's (or OAuth grant's) rate limit, or too many invalid credentials from one address. Wait `Retry-After` seconds, then back off.",
    headers: RETRY,
  },
  internal_error: {
    status: 500,
    title: "Internal error",
    explanation: "A fault on our side; nothing was changed. Retry, and quote the `request_id` if it persists.",
  },
  catalog_unavailable: {
    status: 503,
    title: "Catalog not published yet",
    explanation: "No catalog release has been published on this deployment yet. Retry after `Retry-After` seconds.",
    headers: RETRY,
  },
  release_unavailable: {
    status: 503,
    title: "Release temporarily unavailable",
    explanation:
      "The release's stored data cannot be read at this location right now. Retry after `Retry-After` seconds.",
    headers: RETRY,
  },
  storage_unavailable: {
    status: 503,
    title: "Storage temporarily unavailable",
    explanation:
      "A storage read met a transient failure (the database busy while a release is loaded, a lost connection) and still failed after a few quick retries. Nothing was changed. Retry after `Retry-After` seconds.",
    headers: RETRY,
  },
  oauth_not_configured: {
    status: 503,
    title: "OAuth not configured on this deployment",
    explanation:
      "An OAuth access token was sent, but the deployment has no usable token key to read it. The operator must set `OAUTH_TOKEN_KEY`.",
  },
} as const satisfies Record<string, ProblemType>;
export type ProblemCode = keyof typeof PROBLEM_TYPES;

/** Where a code is explained: the worker's own /docs/errors page, one anchor per code. */
export const PROBLEM_DOCS_PATH = "/docs/errors";
export const problemTypeUrl = (origin: string, code: ProblemCode) => `${origin}${PROBLEM_DOCS_PATH}#${code}`;
