/**
 * Resources, for hosts that attach context by browsing: `catalog://releases/current` (the current
 * release's manifest, as GET /v1/releases/current) and the template
 * `catalog://profiles/{product}/{funnel}` (one profile of the current release, its exact bytes),
 * whose `product` and `funnel` a host completes (`completion/complete`: the keys of the current
 * release that start with what was typed, at most 100; funnels of the product already chosen).
 */
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpError, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { KEY_PATTERN } from "../../common/catalog/schema";
import { CatalogReadError } from "../catalog/service/errors";
import { type KeyField, keysStartingWith } from "../catalog/service/keys";
import { readProfile } from "../catalog/service/profile";
import { resolveRelease } from "../catalog/service/release";
import type { McpContext } from "./catalog-reads";
import { mcpMessageOf } from "./catalog-errors";
import { ourFault } from "./tool-result";

const JSON_TYPE = "application/json";
/** MCP 2025-11-25 "Completion": at most 100 values in one answer. */
const MAX_COMPLETIONS = 100;
/** What can begin a key: lowercase letters, digits and hyphens (KEY_PATTERN's characters). */
const KEY_PREFIX = /^[a-z0-9-]{0,100}$/;

/**
 * A refusal as the JSON-RPC error resources/read answers with (there is no isError for resources);
 * any other failure our fault with a logged reference, never its own text.
 */
async function reading<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof McpError) throw error;
    if (error instanceof CatalogReadError) throw new McpError(ErrorCode.InvalidParams, mcpMessageOf(error.miss));
    throw new McpError(ErrorCode.InternalError, ourFault(error));
  }
}

export function registerResources(server: McpServer, ctx: McpContext) {
  server.registerResource(
    "current_release",
    "catalog://releases/current",
    {
      title: "Current catalog release",
      description: "The manifest of the current release: id, digests, profile count, parts.",
      mimeType: JSON_TYPE,
    },
    (uri) =>
      reading(async () => {
        const manifest = await resolveRelease(ctx.env.CATALOG_KV);
        return { contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(manifest) }] };
      }),
  );

  server.registerResource(
    "profile",
    new ResourceTemplate("catalog://profiles/{product}/{funnel}", {
      list: undefined,
      complete: keyCompletions(ctx),
    }),
    {
      title: "Readiness profile",
      description: "One product's readiness profile in one funnel, in the current release.",
      mimeType: JSON_TYPE,
    },
    (uri, variables) =>
      reading(async () => {
        const [product, funnel] = [variables.product, variables.funnel].map(String) as [string, string];
        for (const [name, key] of [
          ["product", product],
          ["funnel", funnel],
        ] as const)
          if (!KEY_PATTERN.test(key))
            throw new McpError(ErrorCode.InvalidParams, `${name} must be lowercase words joined by hyphens`);
        const manifest = await resolveRelease(ctx.env.CATALOG_KV);
        const found = await readProfile(ctx.env, manifest, { product, funnel });
        return {
          contents: [
            {
              uri: uri.href,
              mimeType: JSON_TYPE,
              text: JSON.stringify(found.profile),
              _meta: { release_id: manifest.release_id, sha256: found.sha256, href: `${ctx.origin}${found.path}` },
            },
          ],
        };
      }),
  );
}

/** `completion/complete` of a template's `product` and `funnel` (this one and the App's profile view). */
export const keyCompletions = (ctx: McpContext) => ({
  product: completing(ctx, "product"),
  funnel: completing(ctx, "funnel"),
});

/** The completions of one key variable: no values for what no key can start with, or before a release. */
function completing(ctx: McpContext, field: KeyField) {
  return async (value: string, context?: { arguments?: Record<string, string> }): Promise<string[]> => {
    if (!KEY_PREFIX.test(value)) return [];
    const product = field === "funnel" ? context?.arguments?.product : undefined;
    try {
      const manifest = await resolveRelease(ctx.env.CATALOG_KV);
      return await keysStartingWith(ctx.env, manifest, {
        field,
        prefix: value,
        limit: MAX_COMPLETIONS,
        ...(product !== undefined && KEY_PATTERN.test(product) ? { product } : {}),
      });
    } catch (error) {
      if (error instanceof CatalogReadError) return [];
      throw error;
    }
  };
}
