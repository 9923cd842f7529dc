/**
 * The catalog's digests. Their one definition is in the client package, which verifies what the
 * worker serves with the same code (packages/client/src/protocol/digests.ts).
 */
export {
  asDigest,
  contentDigestOf,
  DOCUMENT_SUFFIX,
  documentPrefix,
  releaseIdOf,
  toHex,
} from "../../../packages/client/src/protocol/digests.js";

export const apiContractOf = (namespace: string) => `${namespace}.catalog-api/v1`;
