/**
 * `POST /mcp`, the catalog's MCP server (docs/mcp.md), an OAuth 2.1 protected resource as the MCP
 * authorization specification requires: behind `protect("read:catalog")` like every catalog route
 * (API keys and access tokens, the per-credential limits, the access log), with OAuth tokens
 * checked for the MCP resource as their audience (RFC 8707), and every 401 pointing at the
 * protected resource metadata (RFC 9728 §5.1), where a host discovers our authorization server.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { protect } from "../auth/protect";
import type { AppEnv } from "../http/context";
import { Problem } from "../http/problem";
import { documentMcp } from "./openapi";
import { registerProtectedResourceMetadata } from "./protected-resource";
import { MCP_PATH, mcpResourceOf, PROTECTED_RESOURCE_METADATA_PATH } from "./resource-id";
import { answerMcp } from "./server";
import { oneMessagePerRequest } from "./single-message";
import { noQueryParameters } from "../http/strict-query";

/** RFC 9728 §5.1: the challenge names the metadata document; the rest of the problem stays as it was. */
function withResourceMetadata(guard: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    try {
      await guard(c, next);
    } catch (error) {
      const challenge = error instanceof Problem ? error.options.headers?.["WWW-Authenticate"] : undefined;
      if (!(error instanceof Problem) || !challenge) throw error;
      const metadata = `${c.var.publicOrigin}${PROTECTED_RESOURCE_METADATA_PATH}`;
      throw new Problem(error.code, error.detail, {
        ...error.options,
        headers: { ...error.options.headers, "WWW-Authenticate": `${challenge}, resource_metadata="${metadata}"` },
      });
    }
  };
}

/**
 * MCP transport §Security: servers must validate Origin (DNS rebinding). The Host is a configured
 * origin already (public-origin.ts); a browser page of another origin is refused too, before any
 * credential is read. Hosts that are not browsers send no Origin.
 */
const sameOriginOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  const origin = c.req.header("Origin");
  if (origin !== undefined && origin !== c.var.publicOrigin)
    throw new Problem(
      "forbidden",
      `Requests from pages of another origin (${origin.slice(0, 100)}) are refused; call /mcp from an MCP host or a server.`,
    );
  await next();
};

export function registerMcpRoutes(app: OpenAPIHono<AppEnv>) {
  registerProtectedResourceMetadata(app);
  documentMcp(app);
  const guard = withResourceMetadata(protect("read:catalog", { resource: mcpResourceOf }));
  // A query parameter is refused as on every route (the transport takes none), after authentication.
  // A batch is refused after authentication too: it costs one admission and runs nothing.
  app.post(MCP_PATH, sameOriginOnly, guard, noQueryParameters(), oneMessagePerRequest, async (c) =>
    answerMcp(messageRequest(c.req.raw, await c.req.text()), { env: c.env, origin: c.var.publicOrigin }),
  );
}

/** The request again with the body oneMessagePerRequest read (hono keeps it), for the transport to parse. */
const messageRequest = (request: Request, body: string) =>
  new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal });
