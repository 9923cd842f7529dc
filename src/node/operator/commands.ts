/**
 * The commands of `npm run operator`, each one function over the operator API. Account commands act on
 * every deployment in reach (an account is one identity, under one id, on production and on the
 * sandbox); key commands act on the deployment that holds the key's mode (live → production,
 * test → sandbox), which a key id names itself (key_live_… / key_test_…). The admin clearance
 * and admin request commands are in admin-commands.ts.
 */
import { expectDefined } from "../../common/expect";
import type { AccountView } from "../../worker/auth/account-views";
import { KEY_MODES, type KeyMode } from "../../common/auth/api-key";
import { modeOfKeyId } from "../../common/auth/ids";
import { isScope, type Scope } from "../../common/auth/scopes";
import { UsageError } from "../cli/cli-run";
import type { Connections } from "./connect";
import { accountsTable, keysTable } from "./format";
import { DEPLOYMENT_OF, type Deployment } from "./operator-client";

export interface CommandContext {
  connections: Connections;
  /** --env, when given: only this deployment. */
  only?: Deployment;
  json: boolean;
  print: (text: string) => void;
}

export async function deploymentsOf(ctx: CommandContext): Promise<Deployment[]> {
  const all = await ctx.connections.allDeployments();
  if (!ctx.only) return all;
  if (!all.includes(ctx.only))
    throw new UsageError(`--env ${ctx.only} is not reachable here (this command reaches ${all.join(", ")})`);
  return [ctx.only];
}

export async function createAccount(
  ctx: CommandContext,
  input: { email: string; password: string; name?: string; operator: boolean },
): Promise<void> {
  const deployments = await deploymentsOf(ctx);
  const created: { deployment: Deployment; account: AccountView }[] = [];
  let id: string | undefined;
  for (const { deployment, client } of await ctx.connections.reach(deployments)) {
    const account = await client.createAccount({ ...input, id });
    id = account.id;
    created.push({ deployment, account });
  }
  const [first] = created;
  if (ctx.json) return ctx.print(JSON.stringify(expectDefined(first, "an account on the first deployment").account));
  ctx.print(
    `created account ${id} (${input.email}, ${input.operator ? "operator" : "customer"}) on ${deployments.join(" and ")}`,
  );
}

export async function listAccounts(ctx: CommandContext): Promise<void> {
  const byId = new Map<string, { account: AccountView; deployments: Deployment[] }>();
  for (const { deployment, client } of await ctx.connections.reach(await deploymentsOf(ctx))) {
    for (const account of await client.listAccounts()) {
      const entry = byId.get(account.id) ?? { account, deployments: [] };
      entry.deployments.push(deployment);
      byId.set(account.id, entry);
    }
  }
  const accounts = [...byId.values()];
  ctx.print(
    ctx.json
      ? JSON.stringify(accounts.map(({ account, deployments }) => ({ ...account, deployments })))
      : accountsTable(accounts),
  );
}

export async function createKey(
  ctx: CommandContext,
  input: { accountId: string; mode: KeyMode; scopes?: Scope[]; name?: string },
): Promise<void> {
  const deployment = DEPLOYMENT_OF[input.mode];
  if (ctx.only && ctx.only !== deployment)
    throw new UsageError(`${input.mode} keys live on ${deployment}, not on ${ctx.only}`);
  const client = await ctx.connections.client(deployment);
  const key = await client.createKey(input.accountId, { mode: input.mode, scopes: input.scopes, name: input.name });
  if (ctx.json) return ctx.print(JSON.stringify(key));
  ctx.print(
    [
      `created ${key.id} (${key.mode}, on ${deployment}) for ${input.accountId}`,
      `  scopes: ${key.scopes.join(", ")}`,
      `  secret: ${key.secret}`,
      "  This is the only time the secret is shown: store it now (e.g. in your secret manager).",
    ].join("\n"),
  );
}

export async function listKeys(ctx: CommandContext, accountId: string): Promise<void> {
  const reached = await ctx.connections.reach(await deploymentsOf(ctx));
  const keys = (await Promise.all(reached.map(({ client }) => client.listKeys(accountId)))).flat();
  ctx.print(ctx.json ? JSON.stringify(keys) : keysTable(keys));
}

export async function revokeKey(ctx: CommandContext, keyId: string): Promise<void> {
  const client = await ctx.connections.client(deploymentOfKey(keyId));
  const key = await client.revokeKey(keyId);
  ctx.print(ctx.json ? JSON.stringify(key) : `revoked ${key.id} (…${key.last4}): refused from its next request on`);
}

/** `policy` undefined leaves the override as it is; `strict` undefined leaves the admission mode. */
export async function setLimits(
  ctx: CommandContext,
  keyId: string,
  policy: { rate: number; burst: number } | null | undefined,
  strict?: boolean,
): Promise<void> {
  const client = await ctx.connections.client(deploymentOfKey(keyId));
  const lines: string[] = [];
  let result: Record<string, unknown> = { key_id: keyId };
  if (policy !== undefined) {
    result = { ...result, ...(await client.setLimits(keyId, policy)) };
    lines.push(
      policy
        ? `${keyId}: ${policy.rate} requests/s, burst ${policy.burst} (override)`
        : `${keyId}: back to its mode's default limits`,
    );
  }
  if (strict !== undefined) {
    result = { ...result, ...(await client.setAdmission(keyId, strict)) };
    lines.push(
      strict
        ? `${keyId}: strict: every request asks its SubjectGuard (no leases); a revocation holds from the very next request`
        : `${keyId}: admission leases: a revocation holds everywhere within 1 s`,
    );
  }
  ctx.print(ctx.json ? JSON.stringify(result) : lines.join("\n"));
}

function deploymentOfKey(keyId: string): Deployment {
  const mode = modeOfKeyId(keyId);
  if (!mode) throw new UsageError(`"${keyId}" is not a key id (key_live_… or key_test_… followed by 20 characters)`);
  return DEPLOYMENT_OF[mode];
}

export function parseMode(value: string | undefined): KeyMode {
  if (!value || !(KEY_MODES as readonly string[]).includes(value))
    throw new UsageError(`--mode must be ${KEY_MODES.join(" or ")}`);
  return value as KeyMode;
}

export function parseScopes(value: string | undefined): Scope[] | undefined {
  if (value === undefined) return undefined;
  const scopes = value
    .split(",")
    .map((scope) => scope.trim())
    .filter(Boolean);
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length || scopes.length === 0)
    throw new UsageError(`--scopes: unknown scope ${unknown.join(", ") || "(none given)"}`);
  return scopes as Scope[];
}
