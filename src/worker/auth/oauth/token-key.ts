/**
 * The deployment's key for sealing OAuth tokens and codes (token-format.ts): the Worker secret
 * `OAUTH_TOKEN_KEY`, with `OAUTH_TOKEN_KEY_PREVIOUS` while rotating (src/common/sealing-keys.ts,
 * shared with the webhook signing secrets). Without a usable key, OAuth answers 503.
 */
import type { SealingKey } from "../../../common/sealing";
import { deploymentSealingKeys, sealingKeysProblem } from "../../../common/sealing-keys";
import { Problem } from "../../http/problem";

/** What is wrong with the configured key, in words an operator can act on; null when it is usable. */
export const tokenKeyProblem = (env: object): string | null => sealingKeysProblem(env);

/** The sealing key first, then the previous one; a 503 `oauth_not_configured` when unusable. */
export async function tokenKeys(env: object): Promise<[SealingKey, ...SealingKey[]]> {
  const problem = sealingKeysProblem(env);
  if (problem) throw new Problem("oauth_not_configured", problem);
  return deploymentSealingKeys(env);
}
