/**
 * The `admin` scope is never granted on consent alone (authentication spec: "requires manual
 * approval"). Consenting to it records a pending admin request for that (account, client); tokens leave
 * `admin` out until an operator approves it, and the token response's `scope` says so
 * (RFC 6749 §5.1). Once approved, the next code exchange or refresh carries `admin`.
 *
 * Storage (the contract the operator CLI and dashboard read and write):
 * OAUTH_KV `admin-approval:<account_id>:<client_id>` → {@link AdminRequest} JSON.
 */
import { z } from "@hono/zod-openapi";
import { readStoredJson, type TextStore } from "../../http/stored-json";
import { ADMIN_SCOPE } from "../../../common/auth/scopes";

/** The stored name's older word ("approval") is kept so that existing records stay readable. */
export const ADMIN_REQUEST_PREFIX = "admin-approval:";

/** The part of a KV namespace this module needs (also satisfied by the CLI's platform proxy). */
export interface AdminRequestStore extends TextStore {
  put(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export const AdminRequestRecord = z.object({
  account_id: z.string(),
  client_id: z.string(),
  client_name: z.string(),
  status: z.enum(["pending", "approved"]),
  requested_at: z.string(),
  approved_at: z.string().optional(),
  approved_by: z.string().optional(),
});
export type AdminRequest = z.infer<typeof AdminRequestRecord>;

/** A request as operators see it (operator API, `npm run operator -- admin-requests`). */
export interface AdminRequestView extends AdminRequest {
  /** The account's email on that deployment, or null when the account no longer exists. */
  account_email: string | null;
}

export function adminRequestEntryName(accountId: string, clientId: string): string {
  return `${ADMIN_REQUEST_PREFIX}${accountId}:${clientId}`;
}

export async function readAdminRequest(
  kv: AdminRequestStore,
  accountId: string,
  clientId: string,
): Promise<AdminRequest | null> {
  // A corrupt record counts as none: a token then leaves `admin` out until a new approval.
  return readStoredJson(kv, adminRequestEntryName(accountId, clientId), AdminRequestRecord, "admin request");
}

/** Records that the customer consented to `admin` for this client; keeps an existing record. */
export async function recordAdminRequest(
  kv: AdminRequestStore,
  request: { accountId: string; clientId: string; clientName: string; now: Date },
): Promise<AdminRequest> {
  const existing = await readAdminRequest(kv, request.accountId, request.clientId);
  if (existing) return existing;
  const pending: AdminRequest = {
    account_id: request.accountId,
    client_id: request.clientId,
    client_name: request.clientName,
    status: "pending",
    requested_at: request.now.toISOString(),
  };
  await kv.put(adminRequestEntryName(request.accountId, request.clientId), JSON.stringify(pending));
  return pending;
}

/** The scopes a token may carry: `admin` only once an operator approved it for this pair. */
export async function approvedTokenScopes(
  kv: AdminRequestStore,
  grant: { accountId: string; clientId: string; scopes: readonly string[] },
): Promise<string[]> {
  if (!grant.scopes.includes(ADMIN_SCOPE)) return [...grant.scopes];
  const approval = await readAdminRequest(kv, grant.accountId, grant.clientId);
  return approval?.status === "approved" ? [...grant.scopes] : grant.scopes.filter((scope) => scope !== ADMIN_SCOPE);
}

/** Forgets the request (pending or approved) of this pair: the next consent to `admin` asks again. */
export async function dropAdminRequest(kv: AdminRequestStore, accountId: string, clientId: string): Promise<void> {
  await kv.delete(adminRequestEntryName(accountId, clientId));
}
