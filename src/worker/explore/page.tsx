/**
 * The explorer's page shell: the dashboard's (navigation, session, sign-out, stylesheet, CSP with
 * the same-origin copy script) plus the explorer's stylesheet and script; and its refusal pages,
 * which name every problem of the request in words.
 */
import type { Context } from "hono";
import type { Child } from "hono/jsx";
import { signedInSession, type DashboardEnv } from "../dashboard/context";
import { DashboardPage, Notice, renderDashboard, type PageStatus } from "../dashboard/page";
import type { InputProblem } from "./compare-ids";
import { EXPLORE_PATHS } from "./paths";

export function ExplorePage(props: { c: Context<DashboardEnv>; title: string; children: Child }) {
  return (
    <DashboardPage
      title={props.title}
      current="explore"
      account={props.c.var.account}
      session={signedInSession(props.c)}
      stylesheets={[EXPLORE_PATHS.styles]}
      scripts={[EXPLORE_PATHS.script]}
    >
      {props.children}
    </DashboardPage>
  );
}

/** A refused request: what was wrong, each problem on its own line, and the way back. */
export function renderExploreRefusal(
  c: Context<DashboardEnv>,
  status: PageStatus,
  title: string,
  detail: string,
  problems: readonly InputProblem[] = [],
  wayOn: { href: string; label: string } = { href: EXPLORE_PATHS.home, label: "Explore the whole catalog" },
) {
  return renderDashboard(
    c,
    <ExplorePage c={c} title={title}>
      <h1>{title}</h1>
      <Notice kind="error">
        <p>{detail}</p>
        {problems.length ? (
          <ul class="problems">
            {problems.map((problem) => (
              <li>
                <code>{problem.parameter}</code>: {problem.message}
              </li>
            ))}
          </ul>
        ) : null}
      </Notice>
      <p>
        <a href={wayOn.href}>{wayOn.label}</a>
      </p>
      <p class="muted">Request id: {c.get("requestId") ?? "unknown"}</p>
    </ExplorePage>,
    status,
  );
}
