/**
 * The deployment's key for sealing OAuth tokens and codes (token-format.ts): the Worker secret
 * `OAUTH_TOKEN_KEY`, 32 random bytes in base64url (or base64), never stored in KV. For rotation,
 * `OAUTH_TOKEN_KEY_PREVIOUS` keeps the old key readable while the new one seals: refresh tokens
 * live 30 days, so drop the previous key 30 days after the switch. Each key's id is the first
 * byte of its SHA-256, carried in the token so that reading one tries only the key that sealed it.
 * Random 96-bit IVs keep one AES-GCM key safe for 2^32 seals (NIST SP 800-38D §8.3): rotate well
 * before that many tokens.
 */
import { expectDefined } from "../../../common/expect";
import { Problem } from "../../http/problem";

export interface TokenKeySecrets {
  OAUTH_TOKEN_KEY?: string;
  OAUTH_TOKEN_KEY_PREVIOUS?: string;
}

export interface TokenKey {
  id: number;
  key: CryptoKey;
}

const KEY_BYTES = 32;
const imported = new Map<string, Promise<TokenKey>>();

function keyBytes(secret: string | undefined): Uint8Array | null {
  const text = secret?.trim().replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  if (!text || !/^[A-Za-z0-9_-]+$/.test(text) || text.length % 4 === 1) return null;
  const bytes = Uint8Array.fromBase64(text, { alphabet: "base64url" });
  return bytes.length === KEY_BYTES ? bytes : null;
}

/** What is wrong with the configured key, in words an operator can act on; null when it is usable. */
export function tokenKeyProblem(env: object): string | null {
  const secrets = env as TokenKeySecrets;
  const fix = "set the Worker secret to 32 random bytes, base64url (docs/oauth.md, Token format and keys)";
  if (!secrets.OAUTH_TOKEN_KEY)
    return `OAuth is not configured on this deployment: the OAUTH_TOKEN_KEY secret is missing; ${fix}.`;
  if (!keyBytes(secrets.OAUTH_TOKEN_KEY))
    return `OAuth is not configured on this deployment: OAUTH_TOKEN_KEY is not 32 bytes of base64url; ${fix}.`;
  if (secrets.OAUTH_TOKEN_KEY_PREVIOUS && !keyBytes(secrets.OAUTH_TOKEN_KEY_PREVIOUS)) {
    return `OAuth is not configured on this deployment: OAUTH_TOKEN_KEY_PREVIOUS is not 32 bytes of base64url; ${fix}.`;
  }
  return null;
}

function importKey(secret: string): Promise<TokenKey> {
  let key = imported.get(secret);
  if (!key) {
    if (imported.size >= 8) imported.clear();
    const bytes = expectDefined(keyBytes(secret), "a 32-byte key, as tokenKeyProblem checked");
    key = Promise.all([
      crypto.subtle.digest("SHA-256", bytes),
      crypto.subtle.importKey("raw", bytes, "AES-GCM", false, ["encrypt", "decrypt"]),
    ]).then(([digest, cryptoKey]) => ({ id: new DataView(digest).getUint8(0), key: cryptoKey }));
    imported.set(secret, key);
  }
  return key;
}

/** The sealing key first, then the previous one; a 503 `oauth_not_configured` when unusable. */
export async function tokenKeys(env: object): Promise<[TokenKey, ...TokenKey[]]> {
  const problem = tokenKeyProblem(env);
  if (problem) throw new Problem("oauth_not_configured", problem);
  const { OAUTH_TOKEN_KEY, OAUTH_TOKEN_KEY_PREVIOUS } = env as TokenKeySecrets;
  const current = expectDefined(OAUTH_TOKEN_KEY, "OAUTH_TOKEN_KEY, as tokenKeyProblem checked");
  const previous = OAUTH_TOKEN_KEY_PREVIOUS ? [importKey(OAUTH_TOKEN_KEY_PREVIOUS)] : [];
  return Promise.all([importKey(current), ...previous]);
}
