/**
 * The `admin` scope is never granted on consent alone (authentication spec: "requires manual
 * approval"). Consenting to it records a pending approval for that (account, client); tokens leave
 * `admin` out until an operator approves it, and the token response's `scope` says so
 * (RFC 6749 §5.1). Once approved, the next code exchange or refresh carries `admin`.
 *
 * Storage (the contract the operator CLI and dashboard read and write):
 * OAUTH_KV `admin-approval:<account_id>:<client_id>` → {@link AdminApproval} JSON.
 */
import { z } from "@hono/zod-openapi";
import { readStoredJson, type TextStore } from "../../http/stored-json";
import { ADMIN_SCOPE } from "../../../common/auth/scopes";

export const ADMIN_APPROVAL_PREFIX = "admin-approval:";

/** The part of a KV namespace this module needs (also satisfied by the CLI's platform proxy). */
export interface ApprovalStore extends TextStore {
  put(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export const AdminApprovalRecord = z.object({
  account_id: z.string(),
  client_id: z.string(),
  client_name: z.string(),
  status: z.enum(["pending", "approved"]),
  requested_at: z.string(),
  approved_at: z.string().optional(),
  approved_by: z.string().optional(),
});
export type AdminApproval = z.infer<typeof AdminApprovalRecord>;

/** A request as operators see it (operator API, `npm run keys -- admin-requests`). */
export interface AdminRequestView extends AdminApproval {
  /** The account's email on that deployment, or null when the account no longer exists. */
  account_email: string | null;
}

export function adminApprovalKey(accountId: string, clientId: string): string {
  return `${ADMIN_APPROVAL_PREFIX}${accountId}:${clientId}`;
}

export async function readAdminApproval(
  kv: ApprovalStore,
  accountId: string,
  clientId: string,
): Promise<AdminApproval | null> {
  // A corrupt record counts as none: a token then leaves `admin` out until a new approval.
  return readStoredJson(kv, adminApprovalKey(accountId, clientId), AdminApprovalRecord, "admin approval");
}

/** Records that the customer consented to `admin` for this client; keeps an existing record. */
export async function requestAdminApproval(
  kv: ApprovalStore,
  request: { accountId: string; clientId: string; clientName: string; now: Date },
): Promise<AdminApproval> {
  const existing = await readAdminApproval(kv, request.accountId, request.clientId);
  if (existing) return existing;
  const pending: AdminApproval = {
    account_id: request.accountId,
    client_id: request.clientId,
    client_name: request.clientName,
    status: "pending",
    requested_at: request.now.toISOString(),
  };
  await kv.put(adminApprovalKey(request.accountId, request.clientId), JSON.stringify(pending));
  return pending;
}

/** The scopes a token may carry: `admin` only once an operator approved it for this pair. */
export async function approvedTokenScopes(
  kv: ApprovalStore,
  grant: { accountId: string; clientId: string; scopes: readonly string[] },
): Promise<string[]> {
  if (!grant.scopes.includes(ADMIN_SCOPE)) return [...grant.scopes];
  const approval = await readAdminApproval(kv, grant.accountId, grant.clientId);
  return approval?.status === "approved" ? [...grant.scopes] : grant.scopes.filter((scope) => scope !== ADMIN_SCOPE);
}

/** Forgets the approval (pending or approved) of this pair: the next consent to `admin` asks again. */
export async function dropAdminApproval(kv: ApprovalStore, accountId: string, clientId: string): Promise<void> {
  await kv.delete(adminApprovalKey(accountId, clientId));
}
