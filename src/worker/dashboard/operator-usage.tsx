/**
 * The operator's Usage page (operators only), GET /dashboard/operator/usage[?account=<id>&granularity=hour|day]:
 * the deployment's requests, errors and 429s as a chart, the refusals before authentication by
 * code, and the top 20 accounts and keys by requests and by errors, each account linking to its own
 * usage here. The same read as GET /operator/v1/usage (src/worker/usage/operator-reads.ts).
 */
import type { Context, Hono } from "hono";
import { ACCOUNT_ID_PATTERN } from "../../common/auth/ids";
import { operatorUsage } from "../usage/operator-reads";
import type { OperatorUsage, UsageRank } from "../usage/usage-types";
import { type Granularity, GRANULARITIES, usageWindow } from "../usage/usage-window";
import { requireOperatorRole } from "./access";
import { DASHBOARD_PATHS, type DashboardEnv, signedInSession } from "./context";
import { DashboardPage, renderDashboard, renderDashboardError } from "./page";
import { UsageChart } from "./usage-chart";

const PATH = DASHBOARD_PATHS.operatorUsage;
const RANGES: Record<Granularity, string> = { hour: "Last 24 hours", day: "Last 30 days" };
const pageOf = (query: { account?: string; granularity: Granularity }) =>
  `${PATH}?${new URLSearchParams({ ...(query.account ? { account: query.account } : {}), granularity: query.granularity })}`;

function Ranking(props: { caption: string; ranks: UsageRank[]; granularity: Granularity; keys: boolean }) {
  if (props.ranks.length === 0) return <p class="empty">{`${props.caption}: none.`}</p>;
  return (
    <table class="cards">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Account</th>
          {props.keys ? <th scope="col">Key or grant</th> : null}
          <th scope="col">Requests</th>
          <th scope="col">Errors</th>
        </tr>
      </thead>
      <tbody>
        {props.ranks.map((rank) => (
          <tr>
            <td data-label="Account">
              <a href={pageOf({ account: rank.account_id, granularity: props.granularity })}>{rank.account_id}</a>
            </td>
            {props.keys ? (
              <td data-label="Key">
                <code>{rank.key_id}</code>
              </td>
            ) : null}
            <td data-label="Requests">{rank.requests}</td>
            <td data-label="Errors">{rank.errors}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function codes(counts: Record<string, number>): string {
  const listed = Object.entries(counts).sort(([, a], [, b]) => b - a);
  return listed.length === 0 ? "none" : listed.map(([code, n]) => `${code}: ${n}`).join(", ");
}

function OperatorUsageBody(props: { usage: OperatorUsage; account?: string; granularity: Granularity }) {
  const { usage, granularity } = props;
  const errors = usage.series.reduce((sum, point) => sum + point.errors, 0);
  return (
    <>
      <h1>{props.account ? `Usage of ${props.account}` : "Usage of this deployment"}</h1>
      <nav aria-label="Range" class="usage-choices">
        <ul>
          {GRANULARITIES.map((choice) => (
            <li>
              <a
                href={pageOf({ account: props.account, granularity: choice })}
                aria-current={choice === granularity ? "page" : undefined}
              >
                {RANGES[choice]}
              </a>
            </li>
          ))}
          {props.account ? (
            <li>
              <a href={pageOf({ granularity })}>The whole deployment</a>
            </li>
          ) : null}
        </ul>
      </nav>
      <p class="count">{`${RANGES[granularity]}: ${usage.totals.requests} requests, ${errors} errors, ${usage.totals.by_status["429"] ?? 0} rate limited; problem codes: ${codes(usage.totals.by_code)}.`}</p>
      <UsageChart series={usage.series} label={`Requests per ${granularity}, ${RANGES[granularity].toLowerCase()}`} />
      {props.account ? null : (
        <p>{`Refused before authentication: ${usage.unauthenticated.requests} (${codes(usage.unauthenticated.by_code)}).`}</p>
      )}
      {props.account ? null : (
        <>
          <Ranking
            caption="Top accounts by requests"
            ranks={usage.top_accounts.by_requests}
            granularity={granularity}
            keys={false}
          />
          <Ranking
            caption="Top accounts by errors"
            ranks={usage.top_accounts.by_errors}
            granularity={granularity}
            keys={false}
          />
        </>
      )}
      <Ranking
        caption="Top keys by requests"
        ranks={usage.top_keys.by_requests}
        granularity={granularity}
        keys={true}
      />
      <Ranking caption="Top keys by errors" ranks={usage.top_keys.by_errors} granularity={granularity} keys={true} />
    </>
  );
}

async function showOperatorUsage(c: Context<DashboardEnv>) {
  const granularity = c.req.query("granularity") ?? "hour";
  const account = c.req.query("account");
  if (!(GRANULARITIES as readonly string[]).includes(granularity))
    return renderDashboardError(c, 400, "Unknown range", "Choose the last 24 hours or the last 30 days.");
  if (account !== undefined && !ACCOUNT_ID_PATTERN.test(account))
    return renderDashboardError(
      c,
      404,
      "Account not found",
      "An account id looks like acct_ and 20 letters and digits.",
    );
  const window = usageWindow({ granularity: granularity as Granularity }, Date.now());
  if (Array.isArray(window)) throw new Error("the default window is always valid");
  const usage = await operatorUsage(c.env.CATALOG_DB, window, account);
  const page = (
    <DashboardPage title="Usage (operator)" current="operator" account={c.var.account} session={signedInSession(c)}>
      <OperatorUsageBody usage={usage} account={account} granularity={granularity as Granularity} />
    </DashboardPage>
  );
  return renderDashboard(c, page);
}

export function registerOperatorUsagePage(dashboard: Hono<DashboardEnv>): void {
  dashboard.get(PATH, requireOperatorRole(), showOperatorUsage);
}
