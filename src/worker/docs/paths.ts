/** The addresses of the API's documentation, served by the worker and its static assets. */
export const DOCS_PATHS = {
  document: "/openapi.json",
  reference: "/docs",
  errors: "/docs/errors",
  script: "/docs/reference.js",
  styles: "/docs/errors.css",
  /** Workers Static Assets (wrangler.toml [assets]): the Swagger UI files, copied by src/node/local/docs-assets.mjs. */
  uiScript: "/docs/assets/swagger-ui-bundle.js",
  uiStyles: "/docs/assets/swagger-ui.css",
} as const;

export const DOCS_TAG = "Documentation";
