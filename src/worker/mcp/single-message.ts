/**
 * One JSON-RPC message per POST. MCP 2025-06-18 removed JSON-RPC batching (its changelog: "Remove
 * support for JSON-RPC batching"), and a batch would let one admission of the rate limit buy as
 * many tool calls as fit in a body. So a JSON array is refused whole, before anything is
 * dispatched: HTTP 400 with the JSON-RPC error -32600 Invalid Request (JSON-RPC 2.0 §5.1).
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/context";

export const INVALID_REQUEST = -32600;
const BATCH_REFUSED =
  "Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed batching); send one message per POST.";

/** Refuses a body that is a JSON array; any other body goes on to the transport, which parses it. */
export const oneMessagePerRequest: MiddlewareHandler<AppEnv> = async (c, next) => {
  const body = await c.req.text();
  if (body.trimStart().startsWith("[")) {
    return c.json({ jsonrpc: "2.0", id: null, error: { code: INVALID_REQUEST, message: BATCH_REFUSED } }, 400);
  }
  await next();
};
