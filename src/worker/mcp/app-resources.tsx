/**
 * The MCP App resources (SEP-1865; docs/mcp.md "A view inside the conversation"): the two shells
 * that get_profile and compare_profiles link, and the two templates of the rendered views their
 * answers name. Each answers the MCP App MIME type with a CSP that allows no other origin. A URI
 * that names nothing is MCP's resource-not-found error, with every problem in words. ext-apps'
 * `registerAppResource` only adds that MIME type to `registerResource`, and is typed for SDK 2
 * (this server runs SDK 1.32): the SDK's own call with the library's constant does the same.
 */
import type { McpUiResourceMeta } from "@modelcontextprotocol/ext-apps";
import { RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { Child } from "hono/jsx";
import { type CatalogMiss, CatalogReadError } from "../catalog/service/errors";
import type { Manifest } from "../../common/catalog/manifest";
import { type FoundProfile, readProfile } from "../catalog/service/profile";
import { resolveRelease } from "../catalog/service/release";
import { APP_SHELL_URI, APP_VIEW_TEMPLATE, compareViewOf, type Parsed, profileViewOf } from "./app-uris";
import { appDocument, CompareAppView, ProfileAppView, ShellView } from "./app-views";
import { SHELL_SCRIPT } from "./app-shell-script";
import type { McpContext } from "./catalog-reads";
import { mcpMessageOf } from "./catalog-errors";
import { keyCompletions } from "./resources";
import { ourFault } from "./tool-result";

/** MCP 2025-11-25 "Resources" § Error Handling: resource not found is -32002. */
const RESOURCE_NOT_FOUND = -32002;

/** No other origin for anything: no connections, no scripts, styles, images or frames from elsewhere. */
const VIEW_UI: McpUiResourceMeta = {
  csp: { connectDomains: [], resourceDomains: [], frameDomains: [] },
  prefersBorder: true,
};

const viewContent = (uri: URL, html: string, meta: Record<string, unknown> = {}): ReadResourceResult => ({
  contents: [{ uri: uri.href, mimeType: RESOURCE_MIME_TYPE, text: html, _meta: { ui: VIEW_UI, ...meta } }],
});

/** The misses that mean the URI names nothing; the others (nothing readable right now) are not the caller's. */
const ABSENT: ReadonlySet<CatalogMiss["kind"]> = new Set([
  "release_not_found",
  "release_not_indexed",
  "profile_not_found",
] satisfies CatalogMiss["kind"][]);

/** A miss of what the URI names as resource-not-found; anything else our fault, in words, never its text. */
async function viewing(work: () => Promise<ReadResourceResult>): Promise<ReadResourceResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof McpError) throw error;
    if (error instanceof CatalogReadError)
      throw new McpError(
        ABSENT.has(error.miss.kind) ? RESOURCE_NOT_FOUND : ErrorCode.InternalError,
        mcpMessageOf(error.miss),
      );
    throw new McpError(ErrorCode.InternalError, ourFault(error));
  }
}

const notFound = (uri: URL, problems: string[]) =>
  new McpError(RESOURCE_NOT_FOUND, `No view at ${uri.href.slice(0, 200)}: ${problems.join("; ")}`);

export function registerAppResources(server: McpServer, ctx: McpContext) {
  const shell = (name: keyof typeof APP_SHELL_URI, tool: string, title: string) =>
    server.registerResource(
      `${name}_view`,
      APP_SHELL_URI[name],
      {
        title,
        mimeType: RESOURCE_MIME_TYPE,
        description: `The view ${tool} links: it shows the answer the host delivers.`,
        _meta: { ui: VIEW_UI },
      },
      async (uri: URL) => viewContent(uri, await appDocument(title, <ShellView tool={tool} />, SHELL_SCRIPT)),
    );
  shell("profile", "get_profile", "Readiness profile view");
  shell("compare", "compare_profiles", "Readiness comparison view");

  /** A view template: its URI parsed (or not found), its release resolved, then rendered. */
  const view = <Asked extends { releaseId?: string }>(
    name: string,
    template: string,
    title: string,
    parse: (variables: Variables) => Parsed<Asked>,
    render: (uri: URL, asked: Asked, manifest: Manifest) => Promise<ReadResourceResult>,
    complete?: ReturnType<typeof keyCompletions>,
  ) =>
    server.registerResource(
      name,
      new ResourceTemplate(template, { list: undefined, complete }),
      { title, mimeType: RESOURCE_MIME_TYPE, _meta: { ui: VIEW_UI } },
      (uri: URL, variables: Variables) =>
        viewing(async () => {
          const asked = parse(variables);
          if (!asked.ok) throw notFound(uri, asked.problems);
          return render(uri, asked.value, await resolveRelease(ctx.env.CATALOG_KV, asked.value.releaseId));
        }),
    );
  const viewedOf = (found: FoundProfile) => ({
    profile: found.profile,
    sha256: found.sha256,
    href: `${ctx.origin}${found.path}`,
  });

  view(
    "profile_view_of",
    APP_VIEW_TEMPLATE.profile,
    "One profile's stage strip, pinned to a release",
    profileViewOf,
    async (uri, asked, manifest) => {
      const viewed = viewedOf(await readProfile(ctx.env, manifest, asked));
      const body: Child = <ProfileAppView releaseId={manifest.release_id} viewed={viewed} />;
      const html = await appDocument(`${viewed.profile.scope.product.name}: readiness`, body);
      return viewContent(uri, html, { release_id: manifest.release_id, sha256: viewed.sha256, href: viewed.href });
    },
    keyCompletions(ctx),
  );

  view(
    "compare_view_of",
    APP_VIEW_TEMPLATE.compare,
    "Profiles side by side, pinned to a release",
    compareViewOf,
    async (uri, asked, manifest) => {
      const found = await Promise.all(asked.ids.map((id) => readProfile(ctx.env, manifest, { id })));
      const body: Child = <CompareAppView releaseId={manifest.release_id} viewed={found.map(viewedOf)} />;
      return viewContent(uri, await appDocument("Readiness comparison", body), { release_id: manifest.release_id });
    },
  );
}

type Variables = Record<string, string | string[]>;
