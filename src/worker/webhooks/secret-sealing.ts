/**
 * A webhook endpoint's signing secret at rest: `whsealed_` + the secret sealed by
 * src/common/sealing.ts under the deployment's sealing key (src/common/sealing-keys.ts, the
 * OAUTH_TOKEN_KEY material). The same format, label and key as before the sealing moved to common,
 * so every secret sealed earlier still opens; the label keeps a sealed secret from passing for a
 * token and a token from passing for a secret.
 */
import { seal, unseal } from "../../common/sealing";
import { deploymentSealingKeys, sealingKeysProblem } from "../../common/sealing-keys";
import { Problem } from "../http/problem";

const SEALED_SECRET_LABEL = "whsealed_";

/** Seals under the current key; a 503 `oauth_not_configured` when the deployment has no usable key. */
export async function sealSigningSecret(env: object, secret: string): Promise<string> {
  const problem = sealingKeysProblem(env);
  if (problem) throw new Problem("oauth_not_configured", problem);
  const [current] = await deploymentSealingKeys(env);
  return seal(current, SEALED_SECRET_LABEL, secret);
}

/** The secret, or null when no configured key opens it (rotated away, or not a sealed secret). */
export async function openSigningSecret(env: object, sealed: string): Promise<string | null> {
  if (sealingKeysProblem(env)) return null;
  return unseal(await deploymentSealingKeys(env), SEALED_SECRET_LABEL, sealed);
}
