/**
 * Authenticated encryption of short secrets at rest or in transit: `label` + base64url(key id ‖ IV
 * ‖ AES-256-GCM ciphertext and tag), with a random 96-bit IV and the label as associated data, so
 * a value sealed for one purpose cannot pass for another. Shared by the OAuth token format and
 * the webhook signing secrets; each caller chooses its labels and keys.
 *
 * Keys are 32 random bytes in base64url (or base64). Each key's id is the first byte of its
 * SHA-256, carried in the sealed value so that opening one tries only the key that sealed it.
 * Random 96-bit IVs keep one key safe for 2^32 seals (NIST SP 800-38D §8.3).
 */
import { expectDefined } from "./expect";

export interface SealingKey {
  id: number;
  key: CryptoKey;
}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MAX_BODY_CHARS = 512; // a sealed OAuth library token is 139 characters
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const imported = new Map<string, Promise<SealingKey>>();

// btoa/atob rather than Uint8Array.toBase64: src/common also runs in Node 22, which lacks it.
const toBase64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
/** Valid base64url (no padding, length not 1 mod 4), as atob's forgiving decoding reads it. */
const decodeBase64url = (text: string) =>
  Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (char) => char.charCodeAt(0));

/** The bytes of canonical base64url only: one spelling per sealed value (no variants in unused bits). */
function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1 || text.length > MAX_BODY_CHARS) return null;
  const bytes = decodeBase64url(text);
  return toBase64url(bytes) === text ? bytes : null;
}

/** A configured key's 32 bytes, or null when the text is not 32 bytes of base64url or base64. */
export function sealingKeyBytes(secret: string | undefined): Uint8Array<ArrayBuffer> | null {
  const text = secret?.trim().replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  if (!text || !BASE64URL.test(text) || text.length % 4 === 1) return null;
  const bytes = decodeBase64url(text);
  return bytes.length === KEY_BYTES ? bytes : null;
}

/** The key of a secret that sealingKeyBytes accepts, imported once per isolate. */
export function importSealingKey(secret: string): Promise<SealingKey> {
  let key = imported.get(secret);
  if (!key) {
    if (imported.size >= 8) imported.clear();
    const bytes = expectDefined(sealingKeyBytes(secret), "a 32-byte key, checked by the caller");
    key = Promise.all([
      crypto.subtle.digest("SHA-256", bytes),
      crypto.subtle.importKey("raw", bytes, "AES-GCM", false, ["encrypt", "decrypt"]),
    ]).then(([digest, cryptoKey]) => ({ id: new DataView(digest).getUint8(0), key: cryptoKey }));
    imported.set(secret, key);
  }
  return key;
}

export async function seal(key: SealingKey, label: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const additionalData = new TextEncoder().encode(label);
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData },
    key.key,
    new TextEncoder().encode(plaintext),
  );
  return label + toBase64url(new Uint8Array([key.id, ...iv, ...new Uint8Array(sealed)]));
}

/** The plaintext of a value sealed with `label` under one of `keys`, or null (not ours, or tampered with). */
export async function unseal(keys: readonly SealingKey[], label: string, presented: string): Promise<string | null> {
  const bytes = presented.startsWith(label) ? fromBase64url(presented.slice(label.length)) : null;
  if (!bytes || bytes.length <= 1 + IV_BYTES + TAG_BYTES) return null;
  const params = {
    name: "AES-GCM",
    iv: bytes.subarray(1, 1 + IV_BYTES),
    additionalData: new TextEncoder().encode(label),
  };
  for (const { key } of keys.filter((candidate) => candidate.id === bytes[0])) {
    // A wrong key (two keys can share an id byte) or any tampering fails the tag check.
    const opened = await crypto.subtle.decrypt(params, key, bytes.subarray(1 + IV_BYTES)).catch(() => null);
    if (opened) return new TextDecoder().decode(opened);
  }
  return null;
}
