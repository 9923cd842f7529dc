/**
 * The Usage pages, always for the signed-in account (docs/dashboard.md "Usage"):
 * - GET /dashboard/usage[?key=<key id>&granularity=hour|day]      the page
 * - GET /dashboard/usage.csv[?key=<key id>&granularity=hour|day]  its series as CSV
 * The same reads as GET /v1/usage (src/worker/usage/usage-reads.ts); a key of another account is
 * simply not found.
 */
import type { Context, Hono } from "hono";
import { accountObject } from "../auth/accounts";
import { recentErrors, usageReport, type UsageScope } from "../usage/usage-reads";
import { type Granularity, GRANULARITIES, usageWindow } from "../usage/usage-window";
import { DASHBOARD_PATHS, signedInSession, type DashboardEnv } from "./context";
import { renderDashboard, renderDashboardError } from "./page";
import { seriesCsv } from "./usage-chart";
import { UsagePage } from "./usage-page";

const ERRORS_SHOWN = 20;

interface UsageChoice {
  keyId: string | undefined;
  granularity: Granularity;
  scope: UsageScope;
}

/** What the query asks for, or the error page that says why it cannot be shown. */
async function choiceOf(c: Context<DashboardEnv>): Promise<UsageChoice | Response> {
  const granularity = c.req.query("granularity") ?? "hour";
  if (!(GRANULARITIES as readonly string[]).includes(granularity))
    return renderDashboardError(c, 400, "Unknown range", "Choose the last 24 hours or the last 30 days above.");
  const keyId = c.req.query("key");
  const accountId = c.var.account.id;
  if (keyId === undefined) return { keyId, granularity: granularity as Granularity, scope: { accountId } };
  const listed = await accountObject(c.env, accountId).listKeys();
  if (!listed.ok || !listed.value.some((key) => key.id === keyId))
    return renderDashboardError(c, 404, "Key not found", "None of your keys has that id. Choose one above.");
  return { keyId, granularity: granularity as Granularity, scope: { accountId, subject: keyId } };
}

async function reportOf(c: Context<DashboardEnv>, choice: UsageChoice) {
  const window = usageWindow({ granularity: choice.granularity }, Date.now());
  if (Array.isArray(window)) throw new Error("the default window is always valid");
  return usageReport(c.env.CATALOG_DB, choice.scope, window);
}

async function showUsage(c: Context<DashboardEnv>) {
  const choice = await choiceOf(c);
  if (choice instanceof Response) return choice;
  const [report, errors, keys] = await Promise.all([
    reportOf(c, choice),
    recentErrors(c.env.CATALOG_DB, choice.scope, { limit: ERRORS_SHOWN }),
    accountObject(c.env, c.var.account.id).listKeys(),
  ]);
  const page = (
    <UsagePage
      account={c.var.account}
      session={signedInSession(c)}
      keys={keys.ok ? keys.value : []}
      keyId={choice.keyId}
      granularity={choice.granularity}
      report={report}
      errors={errors.errors}
    />
  );
  return renderDashboard(c, page);
}

async function downloadSeries(c: Context<DashboardEnv>) {
  const choice = await choiceOf(c);
  if (choice instanceof Response) return choice;
  const report = await reportOf(c, choice);
  const name = `usage-${choice.keyId ?? "account"}-${choice.granularity}.csv`;
  return c.body(seriesCsv(report.series), 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${name}"`,
    "Cache-Control": "private, no-store",
  });
}

export function registerUsagePages(dashboard: Hono<DashboardEnv>): void {
  dashboard.get(DASHBOARD_PATHS.usage, showUsage);
  dashboard.get(`${DASHBOARD_PATHS.usage}.csv`, downloadSeries);
}
