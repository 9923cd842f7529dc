/**
 * The deployment's sealing keys (sealing.ts): the Worker secret `OAUTH_TOKEN_KEY`, 32 random bytes
 * in base64url (or base64), never stored in KV, and while rotating `OAUTH_TOKEN_KEY_PREVIOUS`,
 * which still opens what it sealed. One key material for OAuth tokens and codes and for webhook
 * signing secrets; their labels keep one from passing for the other. Refresh tokens live 30 days,
 * so drop the previous key 30 days after the switch (docs/oauth.md "Token format and keys").
 */
import { expectDefined } from "./expect";
import { importSealingKey, type SealingKey, sealingKeyBytes } from "./sealing";

export interface SealingSecrets {
  OAUTH_TOKEN_KEY?: string;
  OAUTH_TOKEN_KEY_PREVIOUS?: string;
}

/** What is wrong with the configured keys, in words an operator can act on; null when they are usable. */
export function sealingKeysProblem(env: object): string | null {
  const secrets = env as SealingSecrets;
  const fix = "set the Worker secret to 32 random bytes, base64url (docs/oauth.md, Token format and keys)";
  if (!secrets.OAUTH_TOKEN_KEY)
    return `OAuth is not configured on this deployment: the OAUTH_TOKEN_KEY secret is missing; ${fix}.`;
  if (!sealingKeyBytes(secrets.OAUTH_TOKEN_KEY))
    return `OAuth is not configured on this deployment: OAUTH_TOKEN_KEY is not 32 bytes of base64url; ${fix}.`;
  if (secrets.OAUTH_TOKEN_KEY_PREVIOUS && !sealingKeyBytes(secrets.OAUTH_TOKEN_KEY_PREVIOUS)) {
    return `OAuth is not configured on this deployment: OAUTH_TOKEN_KEY_PREVIOUS is not 32 bytes of base64url; ${fix}.`;
  }
  return null;
}

/** The sealing key first, then the previous one; only call when sealingKeysProblem is null. */
export function deploymentSealingKeys(env: object): Promise<[SealingKey, ...SealingKey[]]> {
  const { OAUTH_TOKEN_KEY, OAUTH_TOKEN_KEY_PREVIOUS } = env as SealingSecrets;
  const current = expectDefined(OAUTH_TOKEN_KEY, "OAUTH_TOKEN_KEY, as sealingKeysProblem checked");
  const previous = OAUTH_TOKEN_KEY_PREVIOUS ? [importSealingKey(OAUTH_TOKEN_KEY_PREVIOUS)] : [];
  return Promise.all([importSealingKey(current), ...previous]);
}
