/** SHA-256 as lowercase hex, for hashing secrets and keys anywhere; one implementation, the client's. */
export { sha256Hex } from "../../packages/client/src/protocol/digests.js";
