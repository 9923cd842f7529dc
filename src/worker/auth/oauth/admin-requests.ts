/**
 * Operators' decisions on `admin` scope requests: the one definition that the dashboard's operator
 * page (src/worker/dashboard/operator.tsx) and the operator API behind `npm run operator` (src/worker/
 * operator/admin-requests.ts) both call. The records are admin-request-record.ts's (OAUTH_KV
 * `admin-approval:<account_id>:<client_id>`), read by every code exchange and refresh: approving
 * sets `status: "approved"`, so the grant's next token carries `admin`; rejecting deletes the
 * pending request, so tokens keep leaving `admin` out and the customer may ask again by
 * authorizing the app again. Withdrawing an approval deletes it and ends the (account, app) grants
 * that hold `admin`, so their tokens fail at the next request and a new grant asks again.
 */
import { readStoredJson } from "../../http/stored-json";
import { ADMIN_SCOPE } from "../../../common/auth/scopes";
import {
  ADMIN_REQUEST_PREFIX,
  AdminRequestRecord,
  adminRequestEntryName,
  dropAdminRequest,
  readAdminRequest,
  type AdminRequest,
} from "./admin-request-record";
import { everyGrant, revokeGrantNow } from "./grant-revocation";
import type { OAuthHelpers } from "./provider";

/** Every request in this state (of one account, when given), oldest first: waiting ones by default. */
export async function adminRequests(
  kv: KVNamespace,
  options: { accountId?: string; status?: AdminRequest["status"] } = {},
): Promise<AdminRequest[]> {
  const status = options.status ?? "pending";
  // The account id ends at the ":" before the client id, so this prefix never matches a longer id.
  const prefix = options.accountId ? `${ADMIN_REQUEST_PREFIX}${options.accountId}:` : ADMIN_REQUEST_PREFIX;
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await kv.list({ prefix, cursor });
    names.push(...page.keys.map((key) => key.name));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  const records = await Promise.all(names.map((name) => readStoredJson(kv, name, AdminRequestRecord, "admin request")));
  return records
    .filter((record): record is AdminRequest => record?.status === status)
    .sort((a, b) => a.requested_at.localeCompare(b.requested_at));
}

export type AdminDecision =
  | { ok: true; request: AdminRequest }
  | { ok: false; reason: "not_found" | "already_decided" };

export async function approveAdminRequest(
  kv: KVNamespace,
  target: { accountId: string; clientId: string },
  approvedBy: string,
  now: Date,
): Promise<AdminDecision> {
  const request = await readAdminRequest(kv, target.accountId, target.clientId);
  if (!request) return { ok: false, reason: "not_found" };
  if (request.status !== "pending") return { ok: false, reason: "already_decided" };
  const approved: AdminRequest = {
    ...request,
    status: "approved",
    approved_at: now.toISOString(),
    approved_by: approvedBy,
  };
  await kv.put(adminRequestEntryName(target.accountId, target.clientId), JSON.stringify(approved));
  return { ok: true, request: approved };
}

export async function rejectAdminRequest(
  kv: KVNamespace,
  target: { accountId: string; clientId: string },
): Promise<AdminDecision> {
  const request = await readAdminRequest(kv, target.accountId, target.clientId);
  if (!request) return { ok: false, reason: "not_found" };
  if (request.status !== "pending") return { ok: false, reason: "already_decided" };
  await kv.delete(adminRequestEntryName(target.accountId, target.clientId));
  return { ok: true, request };
}

export type AdminWithdrawal =
  | { ok: true; request: AdminRequest; revokedGrants: string[] }
  | { ok: false; reason: "not_found" | "pending" };

/** Takes back an approved `admin`: the approval goes, and so do the grants of that pair that hold it. */
export async function withdrawAdminApproval(
  env: Env,
  api: OAuthHelpers,
  target: { accountId: string; clientId: string },
): Promise<AdminWithdrawal> {
  const request = await readAdminRequest(env.OAUTH_KV, target.accountId, target.clientId);
  if (!request) return { ok: false, reason: "not_found" };
  if (request.status !== "approved") return { ok: false, reason: "pending" };
  // The approval goes first, so no refresh from here on can mint a token with admin.
  await dropAdminRequest(env.OAUTH_KV, target.accountId, target.clientId);
  const holding = (await everyGrant(api, target.accountId)).filter(
    (grant) => grant.clientId === target.clientId && grant.scope.includes(ADMIN_SCOPE),
  );
  await Promise.all(holding.map((grant) => revokeGrantNow(env, api, { grantId: grant.id, userId: target.accountId })));
  return { ok: true, request, revokedGrants: holding.map((grant) => grant.id) };
}
