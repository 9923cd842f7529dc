/**
 * Identifiers of accounts and keys: a readable kind prefix plus random base62. Key ids carry the
 * mode (`key_live_…`, `key_test_…`) so an operator tool can tell which deployment holds a key from
 * the id alone. Ids are not secrets; they only name things.
 */
import type { KeyMode } from "./api-key";
import { randomBase62 } from "./checksum";

const ID_RANDOM_LENGTH = 20;

export const newAccountId = () => `acct_${randomBase62(ID_RANDOM_LENGTH)}`;
export const newKeyId = (mode: KeyMode) => `key_${mode}_${randomBase62(ID_RANDOM_LENGTH)}`;

export const ACCOUNT_ID_PATTERN = /^acct_[0-9A-Za-z]{20}$/;
export const KEY_ID_PATTERN = /^key_(live|test)_[0-9A-Za-z]{20}$/;

/** The mode a key id names, or null when it is not a key id. */
export function modeOfKeyId(keyId: string): KeyMode | null {
  const match = KEY_ID_PATTERN.exec(keyId);
  return match ? (match[1] as KeyMode) : null;
}
