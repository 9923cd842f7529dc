/**
 * The API's documentation: /openapi.json (openapi-document.ts completes what zod-openapi
 * generates), the interactive reference at /docs and the error codes at /docs/errors.
 * /openapi.json is a `createRoute` like every JSON route. The HTML pages (/, /docs, /docs/errors)
 * stay plain Hono routes, documented here with `registerPath` and refusing queries with
 * `noQueryParameters()`: they render through the page layout (JSX, a CSP nonce per answer), and
 * zod-openapi's typed responses describe JSON bodies, not pages.
 */
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { openApiDocument } from "../http/openapi-document";
import { ProblemSchema } from "../http/problem";
import { registerErrorsPage } from "./errors-page";
import { HOME_PATH, registerHomePage } from "./home-page";
import { DOCS_PATHS, DOCS_TAG } from "./paths";
import { registerReferencePage } from "./reference-page";
import { plainResponse } from "../http/plain-response";
import { NO_QUERY } from "../http/strict-query";
import { withServedExamples } from "./served-examples";

const TAGS = [
  { name: "Catalog", description: "The catalog document, its parts and release manifests. Scope `read:catalog`." },
  { name: "API keys", description: "Self-service keys of the calling key's account on this deployment." },
  {
    name: "Webhooks",
    description:
      "Endpoints that receive a signed event (Standard Webhooks) when a release is published or rolled back. Scope `manage:webhooks`.",
  },
  {
    name: "Usage",
    description: "Requests, errors and 429s per hour or day, and the recent errors. Scope `read:usage`.",
  },
  { name: "Cheeses", description: "The authentication spec's example collection. Scope `read:cheeses`." },
  {
    name: "OAuth 2.0",
    description: "Authorization server endpoints (RFC 6749, RFC 7009, RFC 8414); errors are RFC 6749 JSON.",
  },
  { name: DOCS_TAG, description: "This description, the interactive reference and the error codes." },
];

/**
 * The document depends on the origin only, and generating it takes milliseconds of CPU: each
 * isolate keeps it per origin (a deployment answers at a few; loopback ports only locally).
 */
const MAX_KEPT_ORIGINS = 8;
const documents = new Map<string, string>();
function documentAt(app: OpenAPIHono<AppEnv>, origin: string): string {
  let text = documents.get(origin);
  if (text === undefined) {
    text = JSON.stringify(openApiDocument(app, origin, TAGS));
    if (documents.size >= MAX_KEPT_ORIGINS) documents.clear();
    documents.set(origin, text);
  }
  return text;
}

const html = (description: string) => ({
  description,
  content: { "text/html": { schema: { type: "string" as const } } },
});

const documented = { tags: [DOCS_TAG], security: [] };

const documentRoute = createRoute({
  ...documented,
  method: "get",
  path: DOCS_PATHS.document,
  operationId: "getOpenApiDocument",
  summary: "This OpenAPI 3.1 description",
  request: { query: NO_QUERY },
  responses: {
    200: {
      description: "The description, for this deployment's origin.",
      content: { "application/json": { schema: z.record(z.string(), z.unknown()) } },
    },
  },
});

export function registerDocs(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.register("Problem", ProblemSchema);
  app.openapi(documentRoute, async (c) =>
    plainResponse(
      c.body(await withServedExamples(documentAt(app, c.var.publicOrigin), c.env.CATALOG_KV), 200, {
        "Content-Type": "application/json",
        // Always the deployed routes and current examples: revalidated (no validator, so refetched) on every use.
        "Cache-Control": "no-cache",
      }),
    ),
  );
  app.openAPIRegistry.registerPath({
    ...documented,
    method: "get",
    path: DOCS_PATHS.reference,
    operationId: "getReference",
    summary: "The interactive API reference",
    responses: { 200: html("An HTML page (Swagger UI, served from this origin).") },
  });
  app.openAPIRegistry.registerPath({
    ...documented,
    method: "get",
    path: DOCS_PATHS.errors,
    operationId: "getErrorCodes",
    summary: "Every problem code, explained",
    responses: { 200: html("An HTML page with one section per code, anchored by the code.") },
  });

  app.openAPIRegistry.registerPath({
    ...documented,
    method: "get",
    path: HOME_PATH,
    operationId: "getHome",
    summary: "Where to start: links to the reference, the error codes, this document and the dashboard",
    responses: {
      200: {
        description: "An HTML page; with `Accept: application/json` (and not `text/html`), the same links as JSON.",
        content: {
          "text/html": { schema: { type: "string" as const } },
          "application/json": {
            schema: z.object({ name: z.string(), links: z.record(z.string(), z.url()) }),
          },
        },
      },
    },
  });

  registerReferencePage(app);
  registerErrorsPage(app);
  registerHomePage(app);
}
