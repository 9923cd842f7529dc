/** How `npm run operator` shows accounts, keys and admin requests to an operator: aligned columns, never a secret. */
import type { AccountView, KeyView } from "../../worker/auth/account-views";
import type { AdminRequestView } from "../../worker/auth/oauth/admin-request-record";
import { textTable } from "../cli/text-table";
import type { Deployment } from "./operator-client";

export function accountsTable(accounts: { account: AccountView; deployments: Deployment[] }[]): string {
  if (accounts.length === 0) return "no accounts";
  return textTable([
    ["ACCOUNT", "EMAIL", "NAME", "ROLES", "ADMIN", "DEPLOYMENTS", "CREATED"],
    ...accounts.map(({ account, deployments }) => [
      account.id,
      account.email,
      account.name,
      account.roles.join(","),
      account.admin_approved ? "approved" : "-",
      deployments.join(","),
      account.created_at,
    ]),
  ]);
}

export function keysTable(keys: KeyView[]): string {
  if (keys.length === 0) return "no keys";
  return textTable([
    ["KEY", "MODE", "STATUS", "ENDS", "NAME", "SCOPES", "CREATED", "LAST USED"],
    ...keys.map((key) => [
      key.id,
      key.mode,
      key.status,
      `…${key.last4}`,
      key.name ?? "-",
      key.scopes.join(","),
      key.created_at,
      key.last_used_at ?? "never",
    ]),
  ]);
}

export function adminRequestsTable(requests: { request: AdminRequestView; deployment: Deployment }[]): string {
  if (requests.length === 0) return "no admin requests are waiting";
  return textTable([
    ["ACCOUNT", "EMAIL", "APP", "CLIENT", "DEPLOYMENT", "REQUESTED"],
    ...requests.map(({ request, deployment }) => [
      request.account_id,
      request.account_email ?? "(deleted)",
      request.client_name,
      request.client_id,
      deployment,
      request.requested_at,
    ]),
  ]);
}
