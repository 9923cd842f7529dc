/**
 * API key format (docs/contract.md "Credentials"): `sk_live_` or `sk_test_`, then 30 random base62
 * characters, then 6 base62 characters of the CRC32 of those 30 (GitHub's token scheme). Everything
 * here is pure: the format and checksum are decided offline, before any storage is touched.
 */
import { sha256Hex } from "../sha256";
import { BASE62_ALPHABET, keyChecksum, randomBase62 } from "./checksum";

export const KEY_MODES = ["live", "test"] as const;
export type KeyMode = (typeof KEY_MODES)[number];

export const KEY_PREFIX_OF: Record<KeyMode, string> = { live: "sk_live_", test: "sk_test_" };
const RANDOM_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
export const API_KEY_LENGTH = KEY_PREFIX_OF.live.length + RANDOM_LENGTH + CHECKSUM_LENGTH;

export type KeyFormatCheck = { ok: true; mode: KeyMode } | { ok: false; detail: string };

/** A new secret and its last four characters (all that is ever shown again). */
export function generateApiKey(mode: KeyMode): { secret: string; last4: string } {
  const random = randomBase62(RANDOM_LENGTH);
  const secret = KEY_PREFIX_OF[mode] + random + keyChecksum(random);
  return { secret, last4: secret.slice(-4) };
}

/** Checks prefix, length, charset and checksum; the detail never repeats the candidate. */
export function checkApiKeyFormat(candidate: string): KeyFormatCheck {
  const mode = KEY_MODES.find((m) => candidate.startsWith(KEY_PREFIX_OF[m]));
  if (!mode) {
    return { ok: false, detail: "API keys start with sk_live_ or sk_test_; this one has an unknown prefix." };
  }
  if (candidate.length !== API_KEY_LENGTH) {
    return {
      ok: false,
      detail: `An API key is ${API_KEY_LENGTH} characters long; this one has ${candidate.length}. Copy the whole key again.`,
    };
  }
  const body = candidate.slice(KEY_PREFIX_OF[mode].length);
  const badAt = [...body].findIndex((ch) => !BASE62_ALPHABET.includes(ch));
  if (badAt >= 0) {
    return {
      ok: false,
      detail: `API keys contain only base62 characters (0-9, A-Z, a-z) after the prefix; character ${KEY_PREFIX_OF[mode].length + badAt + 1} is not one.`,
    };
  }
  const random = body.slice(0, RANDOM_LENGTH);
  if (keyChecksum(random) !== body.slice(RANDOM_LENGTH)) {
    return { ok: false, detail: "The API key's checksum does not match: it was mistyped, truncated or made up." };
  }
  return { ok: true, mode };
}

/** The KV index is keyed by SHA-256 of the whole secret; the secret itself is stored nowhere. */
export const hashApiKey = (secret: string): Promise<string> => sha256Hex(secret);
