/**
 * The KV index the edge reads to learn what a key is: `apikey:<SHA-256 hex of the key>` → record.
 * Written only by the key's AccountObject (the source of truth). KV is eventually consistent, so
 * the record decides what a key *is* (account, mode, scopes), never that it is still valid: the
 * key's SubjectGuard decides that (docs/contract.md "Credentials").
 */
import { z } from "@hono/zod-openapi";
import { KEY_MODES } from "../../common/auth/api-key";
import { ScopeSchema } from "../../common/auth/scopes";

export const KEY_STATUSES = ["active", "revoked"] as const;

export const KeyRecord = z.strictObject({
  key_id: z.string(),
  account_id: z.string(),
  mode: z.enum(KEY_MODES),
  scopes: z.array(ScopeSchema),
  status: z.enum(KEY_STATUSES),
  created_at: z.string(),
  last4: z.string().length(4),
});
export type KeyRecord = z.infer<typeof KeyRecord>;

const KEY_INDEX_PREFIX = "apikey:";
export const keyIndexName = (keyHashHex: string) => `${KEY_INDEX_PREFIX}${keyHashHex}`;
