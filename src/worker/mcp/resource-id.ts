/**
 * The MCP server's path, its RFC 8707 resource identifier at an origin (MCP authorization,
 * "Canonical server URI") and the path of its RFC 9728 metadata. Free of worker types: the OAuth
 * provider, which the operator CLI also loads in Node, declares it as a resource.
 */
export const MCP_PATH = "/mcp";

export const PROTECTED_RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

export const mcpResourceOf = (origin: string) => `${origin}${MCP_PATH}`;
