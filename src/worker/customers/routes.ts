/**
 * GET and PATCH /v2/customer: the profile of the customer the credential acts for (the account
 * that owns the API key, or the customer who consented to the OAuth app), scopes `read:profile`
 * and `write:profile`. PATCH is a JSON merge patch (RFC 7396), applied by the account's object to
 * the latest profile (profile-patch.ts); with If-Match on the profile's ETag (RFC 9110 §13.1.1) a
 * change based on a stale read is 412, never a lost update.
 */
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { accountObject, outcomeValue } from "../auth/accounts";
import { bearerSecurity, protect } from "../auth/protect";
import { notModified, requireIfMatch } from "../catalog/conditional";
import { plainResponse } from "../http/plain-response";
import type { AppEnv } from "../http/context";
import { header, problemResponses } from "../http/openapi-responses";
import { NO_QUERY } from "../http/strict-query";
import { etagOf } from "./profile-patch";
import { CustomerPatch, CustomerView } from "./schemas";

export const CUSTOMER_PATH = "/v2/customer";
const ETAG_HEADER = {
  ETag: header('The profile\'s version, e.g. `"v3"`: send it in If-Match to change it safely.', true),
};
const PROFILE_CONTENT = { "application/json": { schema: CustomerView } };

const getCustomer = createRoute({
  method: "get",
  path: CUSTOMER_PATH,
  operationId: "getCustomer",
  tags: ["Customer"],
  summary: "The customer's profile",
  middleware: [protect("read:profile")] as const,
  security: bearerSecurity("read:profile"),
  request: {
    query: NO_QUERY,
    headers: z.object({
      "if-none-match": z
        .string()
        .optional()
        .openapi({ description: "The ETag of a profile you hold: 304 while it is current." }),
      "if-match": z
        .string()
        .optional()
        .openapi({ description: "412 unless the profile's ETag is listed (strong comparison)." }),
    }),
  },
  responses: {
    200: { description: "The profile.", headers: ETAG_HEADER, content: PROFILE_CONTENT },
    304: { description: "The profile is still the one If-None-Match names.", headers: ETAG_HEADER },
    ...problemResponses("bad_request", "precondition_failed"),
  },
});

const patchCustomer = createRoute({
  method: "patch",
  path: CUSTOMER_PATH,
  operationId: "updateCustomer",
  tags: ["Customer"],
  summary: "Change the customer's profile",
  description:
    "A JSON merge patch (RFC 7396): members replace, `null` removes `phone`, `shipping_address` or `line2`, objects merge. " +
    "Every problem is listed at once; nothing is saved unless the whole result is valid. Send `If-Match` with the ETag of " +
    "the profile you read: if it changed since, 412 and nothing is saved. An email change is recorded, not verified.",
  middleware: [protect("write:profile")] as const,
  security: bearerSecurity("write:profile"),
  request: {
    query: NO_QUERY,
    headers: z.object({
      "if-match": z.string().optional().openapi({ description: "The ETag of the profile this change is based on." }),
    }),
    body: {
      required: true,
      content: {
        "application/merge-patch+json": { schema: CustomerPatch },
        "application/json": { schema: CustomerPatch },
      },
    },
  },
  responses: {
    200: { description: "The profile as saved.", headers: ETAG_HEADER, content: PROFILE_CONTENT },
    ...problemResponses("bad_request", "precondition_failed", "unsupported_media_type"),
  },
});

const customerOf = (c: Context<AppEnv>) => accountObject(c.env, c.get("principal").accountId);

export function registerCustomerRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(getCustomer, async (c) => {
    const record = outcomeValue(await customerOf(c).customer());
    const etag = etagOf(record);
    requireIfMatch(c.req.header("If-Match"), etag);
    const headers = { ETag: etag, "Cache-Control": "private, no-cache" };
    const unchanged = notModified(c.req.header("If-None-Match"), etag, headers);
    if (unchanged) return plainResponse(unchanged);
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    return c.json(record.customer, 200);
  });

  app.openapi(patchCustomer, async (c) => {
    const record = outcomeValue(await customerOf(c).patchCustomer(c.req.valid("json"), c.req.header("If-Match")));
    c.header("ETag", etagOf(record));
    c.header("Cache-Control", "no-store");
    return c.json(record.customer, 200);
  });
}
