/**
 * What an API key *is* (its KV index record: account, mode, scopes), remembered in the isolate for
 * a short while, so that a busy key costs one KV read a minute instead of one per request.
 *
 * Safe because the record never decides that a key is still valid (docs/rate-limits.md "Admission leases"):
 * the key's SubjectGuard holds the revoked state, and once its revocation returns no lease admits the
 * key anywhere, whatever is remembered here. Only active records
 * are kept (a record read as revoked is refused and forgotten), keyed by the key's SHA-256, never
 * the secret. KV itself serves reads up to 60 s old away from where a record was written, so
 * remembering one for 60 s adds no staleness the design does not already accept.
 */
import { isolateMap } from "../../common/isolate-memory";
import type { KeyRecord } from "./key-record";

export const KEY_RECORD_TTL_MS = 60_000;
const MAX_REMEMBERED_KEYS = 10_000;

const remembered = isolateMap<string, { record: KeyRecord; until: number }>();

/** The active record of the key with this hash, if read from KV less than a TTL ago. */
export function recentKeyRecord(keyHash: string, now = Date.now()): KeyRecord | undefined {
  const entry = remembered.get(keyHash);
  if (!entry) return undefined;
  if (entry.until > now) return entry.record;
  remembered.delete(keyHash);
  return undefined;
}

export function rememberKeyRecord(keyHash: string, record: KeyRecord, now = Date.now()): void {
  if (record.status !== "active") {
    remembered.delete(keyHash);
    return;
  }
  remembered.delete(keyHash);
  // Oldest first: a Map iterates in insertion order.
  const oldest = remembered.keys().next();
  if (remembered.size >= MAX_REMEMBERED_KEYS && !oldest.done) remembered.delete(oldest.value);
  remembered.set(keyHash, { record, until: now + KEY_RECORD_TTL_MS });
}
