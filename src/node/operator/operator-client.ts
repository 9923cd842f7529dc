/**
 * A typed client of the worker's operator API (/operator/v1, src/worker/operator/routes.ts): the one
 * way `npm run operator` reads and changes accounts and keys, locally and on Cloudflare alike.
 * A refusal becomes an `OperatorRefusal` carrying the problem's code and detail.
 */
import type { AccountView, KeyView } from "../../worker/auth/account-views";
import type { KeyMode } from "../../common/auth/api-key";
import type { AdminRequest, AdminRequestView } from "../../worker/auth/oauth/admin-request-record";
import type { Scope } from "../../common/auth/scopes";

export type Deployment = "production" | "sandbox";
export const MODE_OF: Record<Deployment, KeyMode> = { production: "live", sandbox: "test" };
export const DEPLOYMENT_OF: Record<KeyMode, Deployment> = { live: "production", test: "sandbox" };

export class OperatorRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`);
  }
}

import type { OperatorUsage } from "../../worker/usage/usage-types";

/** GET /operator/v1/usage's answer. */
export type DeploymentUsage = OperatorUsage & { deployment: Deployment; from: string; to: string; granularity: string };

export type CreatedKey = KeyView & { secret: string };

export class OperatorClient {
  constructor(
    readonly baseUrl: string,
    private readonly operatorSecret: string,
  ) {}

  async deployment(): Promise<{ deployment: Deployment; key_mode: KeyMode }> {
    return this.#call("GET", "/deployment");
  }
  createAccount(input: {
    email: string;
    password: string;
    name?: string;
    operator?: boolean;
    id?: string;
  }): Promise<AccountView> {
    return this.#call("POST", "/accounts", input);
  }
  async listAccounts(): Promise<AccountView[]> {
    return (await this.#call<{ data: AccountView[] }>("GET", "/accounts")).data;
  }
  approveAdmin(accountId: string): Promise<AccountView> {
    return this.#call("POST", `/accounts/${encodeURIComponent(accountId)}/admin-approval`);
  }
  withdrawAdmin(accountId: string): Promise<{ account: AccountView; revoked: KeyView[] }> {
    return this.#call("DELETE", `/accounts/${encodeURIComponent(accountId)}/admin-approval`);
  }
  async listAdminRequests(accountId?: string, status: AdminRequest["status"] = "pending"): Promise<AdminRequestView[]> {
    const query = new URLSearchParams({ status, ...(accountId ? { account_id: accountId } : {}) });
    return (await this.#call<{ data: AdminRequestView[] }>("GET", `/admin-requests?${query}`)).data;
  }
  decideAdminRequest(accountId: string, clientId: string, decision: "approval" | "rejection"): Promise<AdminRequest> {
    return this.#call(
      "POST",
      `/accounts/${encodeURIComponent(accountId)}/admin-requests/${encodeURIComponent(clientId)}/${decision}`,
    );
  }
  /** Withdraws an approved OAuth admin request; the grants of that app holding admin end. */
  withdrawAdminApproval(
    accountId: string,
    clientId: string,
  ): Promise<{ request: AdminRequest; revoked_grants: string[] }> {
    return this.#call(
      "POST",
      `/accounts/${encodeURIComponent(accountId)}/admin-requests/${encodeURIComponent(clientId)}/withdrawal`,
    );
  }
  createKey(accountId: string, input: { mode?: KeyMode; scopes?: Scope[]; name?: string }): Promise<CreatedKey> {
    return this.#call("POST", `/accounts/${encodeURIComponent(accountId)}/keys`, input);
  }
  async listKeys(accountId: string): Promise<KeyView[]> {
    return (await this.#call<{ data: KeyView[] }>("GET", `/accounts/${encodeURIComponent(accountId)}/keys`)).data;
  }
  revokeKey(keyId: string): Promise<KeyView> {
    return this.#call("POST", `/keys/${encodeURIComponent(keyId)}/revocation`);
  }
  setLimits(
    keyId: string,
    policy: { rate: number; burst: number } | null,
  ): Promise<{ key_id: string; policy_override: unknown }> {
    return policy
      ? this.#call("PUT", `/keys/${encodeURIComponent(keyId)}/limits`, policy)
      : this.#call("DELETE", `/keys/${encodeURIComponent(keyId)}/limits`);
  }

  /** Strict: every request of the key asks its SubjectGuard. Answers once the key's earlier leases have ended. */
  setAdmission(keyId: string, strict: boolean): Promise<{ key_id: string; strict: boolean }> {
    return this.#call("PUT", `/keys/${encodeURIComponent(keyId)}/admission`, { strict });
  }

  /** The deployment's usage (GET /operator/v1/usage): totals, refusals, top accounts and keys. */
  usage(query: Record<string, string | undefined>): Promise<DeploymentUsage> {
    const given = Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined);
    return this.#call("GET", `/usage?${new URLSearchParams(given)}`);
  }

  async #call<T>(method: string, route: string, body?: unknown): Promise<T> {
    const response = await fetch(new URL(`/operator/v1${route}`, this.baseUrl), {
      method,
      headers: {
        Authorization: `Bearer ${this.operatorSecret}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) {
      const problem = safeJson(text) as { code?: string; detail?: string } | undefined;
      throw new OperatorRefusal(
        response.status,
        problem?.code ?? `http_${response.status}`,
        problem?.detail ?? text.slice(0, 200),
      );
    }
    return JSON.parse(text) as T;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
