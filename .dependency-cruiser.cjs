/**
 * The layout's rules (docs/architecture.md "Rules"): what may import what. `npm test` runs them
 * (test/node/boundaries.test.ts); `npx depcruise src scripts bench packages/client/src packages/client/test test` alone.
 */
const WORKER = "^src/worker/";
const SHARED = "^src/common/";
const NODE = "^src/node/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A cycle makes two modules one; split the shared part out instead.",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-orphans",
      severity: "error",
      comment: "A file nothing imports is dead or misplaced (entry points and declarations excepted).",
      from: {
        orphan: true,
        pathNot: [
          "\\.d\\.m?ts$",
          "^scripts/[^/]+\\.(ts|mjs)$",
          "^bench/workers/",
          "^bench/[^/]+\\.mjs$",
          "^bench/run\\.ts$",
          "^src/node/local/docs-assets\\.mjs$",
          "\\.test\\.ts$",
          "^test/worker/support/[^/]+\\.global-setup\\.ts$",
          "^src/worker/index\\.ts$",
          "^packages/client/src/(index|node)\\.ts$",
        ],
      },
      to: {},
    },
    {
      name: "common-stays-pure",
      severity: "error",
      comment: "src/common runs in the worker and in Node: it imports neither side's code.",
      from: { path: SHARED },
      to: { path: [WORKER, NODE, "^scripts/", "^bench/", "^test/"] },
    },
    {
      name: "node-not-worker",
      severity: "error",
      comment:
        "src/node runs in Node only: it takes the operator API's response shapes from the worker as types; " +
        "values come from src/common. One exception: src/node/oauth/ loads the OAuth provider config in Node on purpose.",
      from: { path: NODE, pathNot: "^src/node/oauth/(library-in-node|demo)\\.ts$" },
      to: { path: WORKER, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "node-not-doors",
      severity: "error",
      comment: "src/node is the engine: it imports no CLI door, bench or test.",
      from: { path: NODE },
      to: { path: ["^scripts/", "^bench/", "^test/"] },
    },
    {
      name: "worker-not-node",
      severity: "error",
      comment: "The worker bundle must not carry the build/publish code that only Node runs.",
      from: { path: WORKER },
      to: { path: [NODE, "^scripts/", "^bench/", "^test/"] },
    },
    {
      name: "scripts-are-doors",
      severity: "error",
      comment:
        "scripts/ holds thin command-line doors: each parses its arguments and calls src/node, nothing else " +
        "(the shapes it prints come through src/node too).",
      from: { path: "^scripts/" },
      to: { path: ["^src/worker/", "^src/common/", "^bench/", "^test/", "^packages/"] },
    },
    {
      name: "nothing-imports-scripts",
      severity: "error",
      comment: "A door is run, never imported: what a test or another door needs lives in src/node.",
      from: {},
      to: { path: "^scripts/" },
    },
    {
      name: "auth-not-pages",
      severity: "error",
      comment: "Authentication is below the pages that use it: auth never imports dashboard or web.",
      from: { path: "^src/worker/auth/" },
      to: { path: ["^src/worker/dashboard/", "^src/worker/web/"] },
    },
    {
      name: "auth-not-customer-data",
      comment:
        "Authentication knows nothing of the customer's data: the deployed AccountObject (src/worker/account/) " +
        "joins auth's AccountCore with the profile and orders, which keep their own tables.",
      severity: "error",
      from: { path: "^src/worker/auth/" },
      to: { path: "^src/worker/(account|customers|orders|webhooks)/" },
    },
    {
      name: "features-not-auth-internals",
      severity: "error",
      comment:
        "A feature reaches auth through its public face only: protect() and the principal, the account stubs " +
        "(accounts.ts) and the views and outcomes they return (account-views.ts). Tables, passwords, OAuth internals " +
        "(token formats, keys) stay auth's; what two features share lives in src/common (e.g. sealing.ts).",
      from: { path: "^src/worker/(catalog|mcp|explore|cheeses|orders|customers|webhooks)/" },
      to: {
        path: "^src/worker/auth/",
        pathNot: "^src/worker/auth/(accounts|account-views|protect|principal|require-scope)\\.ts$",
      },
    },
    {
      name: "doors-not-doors",
      severity: "error",
      comment:
        "The REST catalog routes (catalog/), the MCP server (mcp/) and the explorer (explore/) are doors to the same " +
        "catalog: none imports another. Pending (docs/architecture.md): mcp/ and explore/ still import the query " +
        "engine from catalog/, and explore/ imports mcp/catalog-reads.ts, until the engine leaves catalog/; then " +
        'this rule becomes from "^src/worker/(catalog|mcp|explore)/" to the same minus "^src/worker/$1/".',
      from: { path: "^src/worker/(catalog|mcp)/" },
      to: { path: "^src/worker/(mcp|explore)/", pathNot: "^src/worker/$1/" },
    },
    {
      name: "views-not-doors",
      severity: "error",
      comment:
        "src/worker/views/ renders what two doors show alike (the stage strip, the comparison table): the explorer " +
        "and the MCP App views import it; it imports no door and no page shell.",
      from: { path: "^src/worker/views/" },
      to: { path: "^src/worker/(catalog|history|mcp|explore|dashboard|web)/" },
    },
    {
      name: "limits-not-auth",
      severity: "error",
      comment: "auth admits requests through limits; limits knows nothing of credentials.",
      from: { path: "^src/worker/limits/" },
      to: { path: ["^src/worker/auth/"] },
    },
    {
      name: "http-not-features",
      severity: "error",
      comment: "http/ is the plumbing every route uses; it imports no feature (only the Principal type).",
      from: { path: "^src/worker/http/" },
      to: {
        path: "^src/worker/(auth|limits|web|dashboard|keys|operator|catalog|docs|cheeses)/",
        pathNot: "^src/worker/auth/principal\\.ts$",
      },
    },
    {
      name: "doors-not-doors",
      severity: "error",
      comment:
        "The catalog's doors (REST in catalog/ and history/, mcp/, explore/) never import one another: what two " +
        "share is the read service's (catalog/service/) or a shape in src/common.",
      from: { path: "^src/worker/(mcp|explore|history)/" },
      to: { path: "^src/worker/(mcp|explore|history)/", pathNot: "^src/worker/$1/" },
    },
    {
      name: "doors-through-the-service",
      severity: "error",
      comment:
        "MCP and the explorer read the catalog through its read service (catalog/service/) and the query language (query-params, query-problem), not through REST's routes.",
      from: { path: "^src/worker/(mcp|explore)/" },
      to: {
        path: "^src/worker/catalog/",
        pathNot: "^src/worker/catalog/(service/|query-params\\.ts$|query-problem\\.ts$)",
      },
    },
    {
      name: "service-without-http",
      severity: "error",
      comment: "The catalog read service returns domain results and misses; each door says them in its own words.",
      from: { path: "^src/worker/catalog/service/" },
      to: { path: ["^src/worker/http/", "^src/worker/(mcp|explore)/", "^hono", "^@hono/"] },
    },
    {
      name: "features-not-entry",
      severity: "error",
      comment: "Only the runtime imports src/worker/index.ts (tests and bench workers may).",
      from: { path: "^src/" },
      to: { path: "^src/worker/index\\.ts$" },
    },
    {
      name: "client-stands-alone",
      severity: "error",
      comment: "packages/client is published on its own: it imports nothing from the repo outside it.",
      from: { path: "^packages/client/" },
      to: { pathNot: ["^packages/client/", "^node_modules/"], dependencyTypesNot: ["core"] },
    },
    {
      name: "no-unresolvable",
      severity: "error",
      comment: "An import that does not resolve is a typo or a missing dependency.",
      from: {},
      to: { couldNotResolve: true, pathNot: "^cloudflare:" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    parser: "swc",
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
    },
  },
};
