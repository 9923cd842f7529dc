/**
 * The Usage page: for the account or one key, the last 24 hours or 30 days as a chart, the totals by
 * status and by code, the recent error answers with their request ids, and the series as CSV.
 */
import type { AccountView } from "../auth/account-views";
import type { KeyView } from "../auth/account-views";
import type { RecentError } from "../usage/usage-reads";
import type { UsageReport } from "../usage/usage-types";
import type { Granularity } from "../usage/usage-window";
import type { WebSession } from "../web/session";
import { usagePath } from "./context";
import { maskedKey, When } from "./display";
import { DashboardPage } from "./page";
import { UsageChart } from "./usage-chart";

export interface UsagePageProps {
  account: AccountView;
  session: WebSession;
  keys: readonly KeyView[];
  keyId: string | undefined;
  granularity: Granularity;
  report: UsageReport;
  errors: readonly RecentError[];
}

const RANGES: Record<Granularity, string> = { hour: "Last 24 hours", day: "Last 30 days" };

function Choices(props: UsagePageProps) {
  const current = (keyId: string | undefined, granularity: Granularity) =>
    keyId === props.keyId && granularity === props.granularity ? "page" : undefined;
  return (
    <nav aria-label="Usage of" class="usage-choices">
      <ul>
        {(["hour", "day"] as const).map((granularity) => (
          <li>
            <a href={usagePath({ key: props.keyId, granularity })} aria-current={current(props.keyId, granularity)}>
              {RANGES[granularity]}
            </a>
          </li>
        ))}
      </ul>
      <ul>
        <li>
          <a href={usagePath({ granularity: props.granularity })} aria-current={current(undefined, props.granularity)}>
            All keys and apps
          </a>
        </li>
        {props.keys.map((key) => (
          <li>
            <a
              href={usagePath({ key: key.id, granularity: props.granularity })}
              aria-current={current(key.id, props.granularity)}
            >
              {key.name ?? maskedKey(key)} <span class="muted">{maskedKey(key)}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function CountTable(props: { caption: string; heading: string; counts: Record<string, number> }) {
  const rows = Object.entries(props.counts).sort(([, a], [, b]) => b - a);
  if (rows.length === 0) return <p class="empty">{`${props.caption}: none.`}</p>;
  return (
    <table>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">{props.heading}</th>
          <th scope="col">Requests</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([name, count]) => (
          <tr>
            <td>
              <code>{name}</code>
            </td>
            <td>{count}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ErrorTable(props: { errors: readonly RecentError[] }) {
  if (props.errors.length === 0) return <p class="empty">No error answers kept.</p>;
  return (
    <table class="cards">
      <caption>Recent errors, newest first</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Request</th>
          <th scope="col">Status, code</th>
          <th scope="col">Request id</th>
        </tr>
      </thead>
      <tbody>
        {props.errors.map((error) => (
          <tr>
            <td data-label="When">
              <When at={error.at} />
            </td>
            <td data-label="Request">
              <code>{`${error.method} ${error.route ?? "(no route)"}`}</code>
            </td>
            <td data-label="Status, code">{`${error.status} ${error.code ?? ""}`}</td>
            <td data-label="Request id">
              <code>{error.request_id}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function UsagePage(props: UsagePageProps) {
  const { totals, series } = props.report;
  const errors = series.reduce((sum, point) => sum + point.errors, 0);
  return (
    <DashboardPage title="Usage" current="usage" account={props.account} session={props.session}>
      <h1>Usage</h1>
      <p class="lead">
        Requests made with your keys and by the apps you authorized, counted within a minute of each answer (times in
        UTC).
      </p>
      <Choices {...props} />
      <p class="count">{`${RANGES[props.granularity]}: ${totals.requests} requests, ${errors} errors, ${totals.bytes} bytes sent.`}</p>
      <UsageChart
        series={series}
        label={`Requests per ${props.granularity}, ${RANGES[props.granularity].toLowerCase()}`}
      />
      <p>
        <a class="button secondary" href={usagePath({ key: props.keyId, granularity: props.granularity }, "csv")}>
          Download the series (CSV)
        </a>
      </p>
      <h2>Totals</h2>
      <CountTable caption="By status" heading="Status" counts={totals.by_status} />
      <CountTable caption="By problem code" heading="Code" counts={totals.by_code} />
      <h2>Recent errors</h2>
      <ErrorTable errors={props.errors} />
    </DashboardPage>
  );
}
