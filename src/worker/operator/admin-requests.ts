/**
 * The operator API's side of OAuth `admin` approval (what `npm run operator -- admin-requests`,
 * `approve-admin --client` and `reject-admin` call). The decisions are src/worker/auth/oauth/
 * admin-requests.ts's, the same the dashboard's operator page makes:
 * - GET  /operator/v1/admin-requests[?account_id=][&status=pending|approved]         requests (pending by default)
 * - POST /operator/v1/accounts/{account_id}/admin-requests/{client_id}/approval     approve one
 * - POST /operator/v1/accounts/{account_id}/admin-requests/{client_id}/rejection    reject one
 * - POST /operator/v1/accounts/{account_id}/admin-requests/{client_id}/withdrawal   withdraw an approval
 * The account-wide approval for API keys is POST /operator/v1/accounts/{account_id}/admin-approval.
 */
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { accountObject } from "../auth/accounts";
import { ACCOUNT_ID_PATTERN } from "../../common/auth/ids";
import type { AdminRequest, AdminRequestView } from "../auth/oauth/admin-request-record";
import {
  approveAdminRequest,
  adminRequests,
  rejectAdminRequest,
  withdrawAdminApproval,
  type AdminDecision,
} from "../auth/oauth/admin-requests";
import { oauthApi } from "../auth/oauth/provider";
import type { AppEnv } from "../http/context";
import { Problem } from "../http/problem";
import { strictQuery } from "../http/strict-query";
import { ACCOUNT_ID_RULE, AccountParams, OPERATOR_BASE, operatorRoute } from "./route";

/** Recorded as `approved_by` of a decision made through this API (the dashboard records the operator's email). */
const OPERATOR_API_ACTOR = "operator API";

// The library's client ids are 16 characters of [A-Za-z0-9_-]; allow some room, nothing else.
const RequestParams = AccountParams.extend({
  client_id: z
    .string()
    .regex(/^[\w-]{1,256}$/, "a client id is letters, digits, - and _ (see npm run clients -- list)"),
});
const RequestsQuery = strictQuery({
  account_id: z.string().regex(ACCOUNT_ID_PATTERN, ACCOUNT_ID_RULE).optional(),
  status: z.enum(["pending", "approved"]).optional(),
});

async function withAccountEmails(env: Env, requests: readonly AdminRequest[]): Promise<AdminRequestView[]> {
  const emails = new Map<string, Promise<string | null>>();
  const emailOf = (id: string) => {
    let email = emails.get(id);
    if (!email) {
      email = accountObject(env, id)
        .account()
        .then((outcome) => (outcome.ok ? outcome.value.email : null));
      emails.set(id, email);
    }
    return email;
  };
  return Promise.all(
    requests.map(async (request) => ({ ...request, account_email: await emailOf(request.account_id) })),
  );
}

function decided(outcome: AdminDecision, target: { account_id: string; client_id: string }): AdminRequest {
  if (outcome.ok) return outcome.request;
  const which = `account ${target.account_id} and client ${target.client_id}`;
  if (outcome.reason === "not_found") {
    throw new Problem(
      "admin_request_not_found",
      `No admin request for ${which}: the customer has not asked for admin through this app, or it was rejected. See npm run operator -- admin-requests.`,
    );
  }
  throw new Problem("admin_request_decided", `The admin request for ${which} was already approved; nothing changed.`);
}

export function registerOperatorAdminRequests(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    operatorRoute({ method: "get", path: `${OPERATOR_BASE}/admin-requests`, request: { query: RequestsQuery } }),
    async (c) => {
      const { account_id, status } = c.req.valid("query");
      const requests = await adminRequests(c.env.OAUTH_KV, { accountId: account_id, status });
      return c.json({ data: await withAccountEmails(c.env, requests) });
    },
  );

  const requestPath = `${OPERATOR_BASE}/accounts/{account_id}/admin-requests/{client_id}`;
  app.openapi(
    operatorRoute({ method: "post", path: `${requestPath}/approval`, request: { params: RequestParams } }),
    async (c) => {
      const target = c.req.valid("param");
      const outcome = await approveAdminRequest(
        c.env.OAUTH_KV,
        { accountId: target.account_id, clientId: target.client_id },
        OPERATOR_API_ACTOR,
        new Date(),
      );
      return c.json(decided(outcome, target));
    },
  );

  app.openapi(
    operatorRoute({ method: "post", path: `${requestPath}/rejection`, request: { params: RequestParams } }),
    async (c) => {
      const target = c.req.valid("param");
      const outcome = await rejectAdminRequest(c.env.OAUTH_KV, {
        accountId: target.account_id,
        clientId: target.client_id,
      });
      return c.json(decided(outcome, target));
    },
  );

  registerWithdrawal(app, requestPath);
}

function registerWithdrawal(app: OpenAPIHono<AppEnv>, requestPath: string) {
  app.openapi(
    operatorRoute({ method: "post", path: `${requestPath}/withdrawal`, request: { params: RequestParams } }),
    async (c) => {
      const target = c.req.valid("param");
      const outcome = await withdrawAdminApproval(c.env, oauthApi(c.env, c.var.publicOrigin), {
        accountId: target.account_id,
        clientId: target.client_id,
      });
      const which = `account ${target.account_id} and client ${target.client_id}`;
      if (!outcome.ok && outcome.reason === "not_found")
        throw new Problem("admin_request_not_found", `No admin approval for ${which}; nothing changed.`);
      if (!outcome.ok)
        throw new Problem(
          "admin_request_pending",
          `The admin request for ${which} is still waiting, not approved; reject it instead (npm run operator -- reject-admin).`,
        );
      return c.json({ request: outcome.request, revoked_grants: outcome.revokedGrants });
    },
  );
}
