/**
 * The OAuth protocol endpoints as zod-openapi routes (`createRoute`, registered by routes.ts), and
 * the `oauth2` security scheme (authorization code flow, every scope in plain words).
 * The library owns their wire format, so zod-openapi must validate nothing here: form and JSON
 * bodies are documented by reference to a registered schema (a zod schema in the route would make
 * it parse the body itself and answer its own 400 or 415 where RFC 6749 §5.2 and RFC 7591 §3.2.2
 * errors are due), and no query schema is declared, since RFC 6749 §3.1 and §3.2 require unknown
 * parameters to be ignored (`IGNORES_UNKNOWN_QUERY` marks that in /openapi.json).
 */
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../http/context";
import { SCOPES } from "../../../common/auth/scopes";
import { CLIENT_REGISTRATION_ENDPOINT } from "./dynamic-registration";
import { ACCESS_TOKEN_TTL_SECONDS, OAUTH_ENDPOINTS } from "./provider";
import { SCOPE_WORDS } from "./scope-words";
import { IGNORES_UNKNOWN_QUERY } from "../../http/strict-query";

export const OAUTH_SCHEME_NAME = "oauth2";

const OAuthError = z
  .object({
    error: z.string().openapi({ example: "invalid_grant" }),
    error_description: z.string().openapi({ example: "Invalid PKCE code_verifier" }),
  })
  .openapi("OAuthError", { description: "RFC 6749 §5.2" });

const TokenRequest = z
  .object({
    grant_type: z.enum(["authorization_code", "refresh_token"]),
    code: z
      .string()
      .optional()
      .openapi({ description: "authorization_code: the code from the redirect (oac_…; valid 60 s, once)" }),
    redirect_uri: z
      .string()
      .optional()
      .openapi({ description: "authorization_code: the redirect_uri of the authorization request" }),
    code_verifier: z
      .string()
      .regex(/^[A-Za-z0-9._~-]{43,128}$/)
      .optional()
      .openapi({
        description: "authorization_code: the PKCE verifier, 43-128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1)",
      }),
    refresh_token: z.string().optional().openapi({ description: "refresh_token: the current refresh token (ort_…)" }),
    scope: z.string().optional().openapi({ description: "Optional narrowing; never wider than the customer approved" }),
    client_id: z
      .string()
      .optional()
      .openapi({ description: "Public clients; confidential clients use HTTP Basic or client_secret" }),
    client_secret: z.string().optional(),
  })
  .openapi("TokenRequest");

const TokenResponse = z
  .object({
    access_token: z.string().openapi({ example: "oat_6Xq0tVb1nW8…", description: "Opaque: a prefix and sealed bytes" }),
    token_type: z.literal("bearer"),
    expires_in: z.int().openapi({ example: ACCESS_TOKEN_TTL_SECONDS }),
    refresh_token: z.string().openapi({ example: "ort_6Rk2LpZ9sQd…" }),
    scope: z
      .string()
      .openapi({ example: "read:cheeses read:catalog", description: "What was granted (admin only once approved)" }),
    resource: z.string().openapi({ example: "https://api.example.com" }),
  })
  .openapi("TokenResponse");

const RevocationRequest = z
  .object({
    token: z.string().min(1).openapi({
      description:
        "An access (oat_…) or refresh (ort_…) token; either ends the whole grant. Required once (RFC 7009 §2.1)",
    }),
    token_type_hint: z.enum(["access_token", "refresh_token"]).optional(),
    client_id: z
      .string()
      .optional()
      .openapi({ description: "Public clients; confidential clients use HTTP Basic or client_secret" }),
    client_secret: z.string().optional(),
  })
  .openapi("RevocationRequest");

/** Bodies the routes document by reference, never validate (see above). */
const BODY_SCHEMAS = { TokenRequest, RevocationRequest };
const byReference = (name: keyof typeof BODY_SCHEMAS) => ({ $ref: `#/components/schemas/${name}` });
const form = (name: keyof typeof BODY_SCHEMAS) => ({
  body: { content: { "application/x-www-form-urlencoded": { schema: byReference(name) } }, required: true },
});
const oauthError = (description: string) => ({ description, content: { "application/json": { schema: OAuthError } } });
/** The endpoints read at most 16 KiB of form (token-endpoint.ts); the app refuses bodies over 64 KiB first. */
const FORM_TOO_LARGE = oauthError("invalid_request: the form is over 16 KiB");
const NO_USABLE_TOKEN_KEY = oauthError("temporarily_unavailable: the deployment has no usable OAUTH_TOKEN_KEY");
/** RFC 7591 answers: a JSON object, documented without a schema of its own. */
const anyObject = { type: "object" as const, additionalProperties: {} };
const json = (description: string) => ({ description, content: { "application/json": { schema: anyObject } } });
const tags = ["OAuth 2.0"];

export const metadataRoute = createRoute({
  method: "get",
  path: OAUTH_ENDPOINTS.metadata,
  operationId: "getAuthorizationServerMetadata",
  tags,
  ...IGNORES_UNKNOWN_QUERY,
  summary: "Authorization server metadata (RFC 8414)",
  responses: {
    200: {
      description:
        "Endpoints, scopes, response types, PKCE methods; `client_id_metadata_document_supported: true` (an https `client_id` may name a Client ID Metadata Document, docs/oauth.md)",
      content: { "application/json": { schema: z.record(z.string(), z.unknown()) } },
    },
  },
});

export const tokenRoute = createRoute({
  method: "post",
  path: OAUTH_ENDPOINTS.token,
  operationId: "requestToken",
  tags,
  ...IGNORES_UNKNOWN_QUERY,
  summary: "Exchange a code, or refresh (rotating refresh tokens)",
  request: form("TokenRequest"),
  responses: {
    200: {
      description: "Tokens (Cache-Control: no-store)",
      content: { "application/json": { schema: TokenResponse } },
    },
    400: oauthError("invalid_request, invalid_grant, invalid_scope, unsupported_grant_type"),
    401: oauthError("invalid_client (also: a `client_id` URL whose metadata document cannot be fetched or used)"),
    413: FORM_TOO_LARGE,
    503: NO_USABLE_TOKEN_KEY,
  },
});

export const revocationRoute = createRoute({
  method: "post",
  path: OAUTH_ENDPOINTS.revoke,
  operationId: "revokeToken",
  tags,
  ...IGNORES_UNKNOWN_QUERY,
  summary: "Revoke a token and its grant (RFC 7009)",
  request: form("RevocationRequest"),
  responses: {
    200: { description: "Revoked, or the token was unknown (RFC 7009 §2.2)" },
    400: oauthError("invalid_request; unauthorized_client: the token was issued to another client (RFC 7009 §2.1)"),
    401: oauthError("invalid_client"),
    413: FORM_TOO_LARGE,
    503: NO_USABLE_TOKEN_KEY,
  },
});

export const registrationRoute = createRoute({
  method: "post",
  path: CLIENT_REGISTRATION_ENDPOINT,
  operationId: "registerClient",
  ...IGNORES_UNKNOWN_QUERY,
  tags,
  summary: "Dynamic client registration (RFC 7591): public clients with PKCE",
  description:
    '`token_endpoint_auth_method` must be `"none"`; 1–10 `redirect_uris`, https or loopback http. `client_name` at most ' +
    "200 characters, each URI at most 2,000, every list at most 10 entries (each refusal names its field). At most 10 " +
    "per address (then 10 an hour) and 1000 per deployment (then 1000 a week); unused registrations expire after 7 days.",
  request: {
    body: {
      content: {
        "application/json": {
          schema: anyObject,
          example: {
            client_name: "My agent",
            redirect_uris: ["http://127.0.0.1:8790/callback"],
            token_endpoint_auth_method: "none",
          },
        },
      },
      required: true,
    },
  },
  responses: {
    201: json("The client: `client_id`, its metadata, no secret"),
    400: json("invalid_request (not JSON) or invalid_client_metadata"),
    413: json("invalid_request: the body is over 1 MiB"),
    429: json("temporarily_unavailable: too many registrations (Retry-After)"),
  },
});

/** The `oauth2` security scheme and the bodies the routes name by reference. */
export function documentOAuth(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerComponent("securitySchemes", OAUTH_SCHEME_NAME, {
    type: "oauth2",
    description: "OAuth 2.0 authorization code flow with PKCE (S256). Register clients with `npm run clients`.",
    flows: {
      authorizationCode: {
        authorizationUrl: OAUTH_ENDPOINTS.authorize,
        tokenUrl: OAUTH_ENDPOINTS.token,
        refreshUrl: OAUTH_ENDPOINTS.token,
        scopes: Object.fromEntries(SCOPES.map((scope) => [scope, SCOPE_WORDS[scope]])),
      },
    },
  });
  for (const [name, schema] of Object.entries(BODY_SCHEMAS)) app.openAPIRegistry.register(name, schema);
}
