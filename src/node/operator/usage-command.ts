/**
 * `npm run operator -- usage [--account <id>] [--from <ISO>] [--to <ISO>] [--granularity hour|day]`:
 * GET /operator/v1/usage of every deployment in reach (or --env's), printed as tables: the totals
 * per deployment (with the refusals before authentication by code), then the top accounts and
 * keys by requests and by errors.
 */
import type { UsageRank } from "../../worker/usage/usage-types";
import { textTable } from "../cli/text-table";
import { type CommandContext, deploymentsOf } from "./commands";
import type { DeploymentUsage } from "./operator-client";

interface UsageQuery {
  account?: string;
  from?: string;
  to?: string;
  granularity?: string;
}

export async function showUsage(ctx: CommandContext, query: UsageQuery): Promise<void> {
  const reached = await ctx.connections.reach(await deploymentsOf(ctx));
  const usages = await Promise.all(reached.map(({ client }) => client.usage({ ...query })));
  ctx.print(ctx.json ? JSON.stringify(usages) : usageTables(usages));
}

const codes = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort(([, a], [, b]) => b - a)
    .map(([code, n]) => `${code} ${n}`)
    .join(", ") || "-";

function rankTable(title: string, usages: DeploymentUsage[], pick: (usage: DeploymentUsage) => UsageRank[]): string {
  const rows = usages.flatMap((usage) =>
    pick(usage).map((rank) => [
      usage.deployment,
      rank.account_id,
      rank.key_id ?? "-",
      String(rank.requests),
      String(rank.errors),
    ]),
  );
  if (rows.length === 0) return `${title}: none`;
  return `${title}\n${textTable([["DEPLOYMENT", "ACCOUNT", "KEY", "REQUESTS", "ERRORS"], ...rows])}`;
}

export function usageTables(usages: DeploymentUsage[]): string {
  const totals = textTable([
    ["DEPLOYMENT", "FROM", "TO", "REQUESTS", "ERRORS", "429", "BYTES", "CODES", "UNAUTHENTICATED"],
    ...usages.map((usage) => [
      usage.deployment,
      usage.from,
      usage.to,
      String(usage.totals.requests),
      String(usage.series.reduce((sum, point) => sum + point.errors, 0)),
      String(usage.totals.by_status["429"] ?? 0),
      String(usage.totals.bytes),
      codes(usage.totals.by_code),
      `${usage.unauthenticated.requests} (${codes(usage.unauthenticated.by_code)})`,
    ]),
  ]);
  return [
    totals,
    rankTable("Top accounts by requests", usages, (u) => u.top_accounts.by_requests),
    rankTable("Top accounts by errors", usages, (u) => u.top_accounts.by_errors),
    rankTable("Top keys by requests", usages, (u) => u.top_keys.by_requests),
    rankTable("Top keys by errors", usages, (u) => u.top_keys.by_errors),
  ].join("\n\n");
}
