/**
 * RFC 8785 (JCS). Its one definition is in the client package, which computes release ids with it
 * (packages/client/src/protocol/canonical.ts).
 */
export { CanonicalizationError, canonicalJson } from "../../../packages/client/src/protocol/canonical.js";
