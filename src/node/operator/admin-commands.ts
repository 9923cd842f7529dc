/**
 * The admin clearance and admin request commands of `npm run operator`, over the operator API. `admin` is granted in two
 * places, both only by an operator (authentication spec: "requires manual approval"):
 * - API keys: an account-wide flag (the account may create keys with admin);
 * - OAuth: one request per (account, app), recorded when the customer consents to admin; the app's
 *   tokens leave admin out until it is approved.
 * The rule: `approve-admin --account X` approves both, the flag and every OAuth request of X
 * waiting at that moment (a later request waits again); `--client C` approves only that app's
 * request. `reject-admin` refuses waiting OAuth requests (one, or all of the account's); it never
 * changes the account-wide flag; `withdraw-admin` clears the flag and revokes the account's active
 * keys that carry admin, and withdraws every approved OAuth request of the account (ending the
 * grants that hold admin); `--client C` withdraws only that app's approval. Every command acts on
 * each deployment in reach, as accounts do.
 */
import { expectDefined } from "../../common/expect";
import type { AdminRequest, AdminRequestView } from "../../worker/auth/oauth/admin-request-record";
import { deploymentsOf, type CommandContext } from "./commands";
import { adminRequestsTable } from "./format";
import { OperatorRefusal, type Deployment, type OperatorClient } from "./operator-client";

type Decision = "approval" | "rejection";
interface Decided {
  deployment: Deployment;
  request: AdminRequest;
}

const appOf = ({ request, deployment }: Decided) =>
  `${request.client_name} (client ${request.client_id}, ${deployment})`;

async function reach(ctx: CommandContext): Promise<{ deployment: Deployment; client: OperatorClient }[]> {
  return ctx.connections.reach(await deploymentsOf(ctx));
}

export async function listAdminRequests(ctx: CommandContext, accountId?: string): Promise<void> {
  const rows: { deployment: Deployment; request: AdminRequestView }[] = [];
  for (const { deployment, client } of await reach(ctx)) {
    for (const request of await client.listAdminRequests(accountId)) rows.push({ deployment, request });
  }
  ctx.print(
    ctx.json
      ? JSON.stringify(rows.map(({ deployment, request }) => ({ ...request, deployment })))
      : adminRequestsTable(rows),
  );
}

/** A 409 (already decided) over a 404: the refusal that says more; every deployment refused when this is called. */
const firstRefusal = (refusals: readonly OperatorRefusal[]) =>
  refusals.find((refusal) => refusal.status === 409) ??
  expectDefined(refusals[0], "a refusal from each deployment reached");

/** One app's request, wherever it is; refused (404, or 409 when decided) only when no deployment had it waiting. */
async function decideOne(
  ctx: CommandContext,
  accountId: string,
  clientId: string,
  decision: Decision,
): Promise<Decided[]> {
  const decided: Decided[] = [];
  const refusals: OperatorRefusal[] = [];
  for (const { deployment, client } of await reach(ctx)) {
    try {
      decided.push({ deployment, request: await client.decideAdminRequest(accountId, clientId, decision) });
    } catch (error) {
      if (!(error instanceof OperatorRefusal && (error.status === 404 || error.status === 409))) throw error;
      refusals.push(error);
    }
  }
  if (decided.length === 0) throw firstRefusal(refusals);
  return decided;
}

/** Every request of the account waiting now; one decided meanwhile elsewhere is skipped. */
async function decideAll(
  ctx: CommandContext,
  accountId: string,
  decision: Decision,
  before?: (client: OperatorClient) => Promise<unknown>,
): Promise<Decided[]> {
  const decided: Decided[] = [];
  for (const { deployment, client } of await reach(ctx)) {
    await before?.(client);
    for (const waiting of await client.listAdminRequests(accountId)) {
      try {
        decided.push({ deployment, request: await client.decideAdminRequest(accountId, waiting.client_id, decision) });
      } catch (error) {
        if (!(error instanceof OperatorRefusal && (error.status === 404 || error.status === 409))) throw error;
      }
    }
  }
  return decided;
}

export async function approveAdmin(
  ctx: CommandContext,
  target: { accountId: string; clientId?: string },
): Promise<void> {
  const deployments = await deploymentsOf(ctx);
  if (target.clientId) {
    const decided = await decideOne(ctx, target.accountId, target.clientId, "approval");
    if (ctx.json)
      return ctx.print(
        JSON.stringify({
          account_id: target.accountId,
          approved: decided.map(({ deployment, request }) => ({ ...request, deployment })),
        }),
      );
    return ctx.print(
      `admin approved for ${decided.map(appOf).join(", ")} acting for ${target.accountId}: its next token (a refresh or a new sign-in) carries admin`,
    );
  }
  const decided = await decideAll(ctx, target.accountId, "approval", (client) => client.approveAdmin(target.accountId));
  if (ctx.json) {
    return ctx.print(
      JSON.stringify({
        account_id: target.accountId,
        admin_approved: true,
        deployments,
        approved: decided.map(({ deployment, request }) => ({ ...request, deployment })),
      }),
    );
  }
  ctx.print(
    [
      `admin approved for ${target.accountId} on ${deployments.join(" and ")}`,
      "  API keys:   the account may now create keys with the admin scope",
      decided.length
        ? `  OAuth apps: ${decided.map(appOf).join(", ")}: the next token carries admin`
        : "  OAuth apps: none waiting (a later request waits again: run this again, or use --client)",
    ].join("\n"),
  );
}

export async function rejectAdmin(
  ctx: CommandContext,
  target: { accountId: string; clientId?: string },
): Promise<void> {
  const decided = target.clientId
    ? await decideOne(ctx, target.accountId, target.clientId, "rejection")
    : await decideAll(ctx, target.accountId, "rejection");
  if (ctx.json)
    return ctx.print(
      JSON.stringify({
        account_id: target.accountId,
        rejected: decided.map(({ deployment, request }) => ({ ...request, deployment })),
      }),
    );
  if (decided.length === 0) return ctx.print(`no admin requests of ${target.accountId} are waiting; nothing changed`);
  ctx.print(
    `admin rejected for ${decided.map(appOf).join(", ")} acting for ${target.accountId}: tokens keep leaving admin out (the customer may ask again)`,
  );
}

/** Withdraws approved OAuth requests: that app's (refused when no deployment had it approved) or every one of the account. */
async function withdrawApprovals(ctx: CommandContext, accountId: string, clientId?: string) {
  const withdrawn: (Decided & { grants: number })[] = [];
  const refusals: OperatorRefusal[] = [];
  for (const { deployment, client } of await reach(ctx)) {
    const clientIds = clientId
      ? [clientId]
      : (await client.listAdminRequests(accountId, "approved")).map((request) => request.client_id);
    for (const id of clientIds) {
      try {
        const done = await client.withdrawAdminApproval(accountId, id);
        withdrawn.push({ deployment, request: done.request, grants: done.revoked_grants.length });
      } catch (error) {
        if (!(error instanceof OperatorRefusal && (error.status === 404 || error.status === 409))) throw error;
        refusals.push(error);
      }
    }
  }
  if (clientId && withdrawn.length === 0) throw firstRefusal(refusals);
  return withdrawn;
}

const grantsEnded = (withdrawn: readonly (Decided & { grants: number })[]) =>
  withdrawn.length
    ? `${withdrawn.map((entry) => `${appOf(entry)}: ${entry.grants} grant${entry.grants === 1 ? "" : "s"} ended`).join(", ")}; their tokens stop at the next request`
    : "none was approved";

export async function withdrawAdmin(
  ctx: CommandContext,
  target: { accountId: string; clientId?: string },
): Promise<void> {
  const { accountId, clientId } = target;
  if (clientId) {
    const withdrawn = await withdrawApprovals(ctx, accountId, clientId);
    if (ctx.json) return ctx.print(JSON.stringify({ account_id: accountId, withdrawn: withdrawn.map(withdrawnJson) }));
    return ctx.print(`admin withdrawn for ${accountId}: ${grantsEnded(withdrawn)}`);
  }
  const done: { deployment: Deployment; revoked: string[] }[] = [];
  for (const { deployment, client } of await reach(ctx)) {
    const withdrawnKeys = await client.withdrawAdmin(accountId);
    done.push({ deployment, revoked: withdrawnKeys.revoked.map((key) => key.id) });
  }
  const withdrawn = await withdrawApprovals(ctx, accountId);
  if (ctx.json)
    return ctx.print(
      JSON.stringify({
        account_id: accountId,
        admin_approved: false,
        deployments: done,
        withdrawn: withdrawn.map(withdrawnJson),
      }),
    );
  const revoked = done.flatMap((entry) => entry.revoked);
  ctx.print(
    [
      `admin withdrawn for ${accountId} on ${done.map((entry) => entry.deployment).join(" and ")}`,
      `  API keys:   the account may no longer create keys with the admin scope; ${
        revoked.length
          ? `revoked its admin key${revoked.length === 1 ? "" : "s"} ${revoked.join(", ")}`
          : "it had no active admin key"
      }`,
      `  OAuth apps: ${grantsEnded(withdrawn)}`,
    ].join("\n"),
  );
}

const withdrawnJson = ({ deployment, request, grants }: Decided & { grants: number }) => ({
  ...request,
  deployment,
  grants_ended: grants,
});
