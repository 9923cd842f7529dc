/**
 * The MCP server's path and its RFC 8707 resource identifier at an origin (MCP authorization,
 * "Canonical server URI"). Free of worker types: the OAuth provider, which the operator CLI also
 * loads in Node, declares it as a resource.
 */
export const MCP_PATH = "/mcp";

export const mcpResourceOf = (origin: string) => `${origin}${MCP_PATH}`;
