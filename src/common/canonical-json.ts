/**
 * RFC 8785 (JCS) canonical JSON for the worker (order request fingerprints). Its one definition is
 * in the client package (packages/client/src/protocol/canonical.ts).
 */
export { canonicalJson } from "../../packages/client/src/protocol/canonical.js";
