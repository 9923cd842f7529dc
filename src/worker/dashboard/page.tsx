/**
 * The dashboard's page shell: the shared layout of the web pages (src/worker/web/page.tsx) with the
 * dashboard's navigation, its stylesheet and the one small script (the copy button). Pages are
 * sent by the web pages' `renderPage`, so they carry the same CSP and `Cache-Control: no-store`.
 */
import type { Context } from "hono";
import type { Child } from "hono/jsx";
import type { AccountView } from "../auth/account-views";
import { DOCS_PATHS } from "../docs/paths";
import { SignOutForm } from "../web/login-page";
import { Layout, renderPage } from "../web/page";
import type { WebSession } from "../web/session";
import { DASHBOARD_PATHS, EXPLORE_HOME_PATH, isOperator, signedInSession, type DashboardEnv } from "./context";

export type Section = "keys" | "profile" | "apps" | "webhooks" | "watches" | "usage" | "operator" | "explore";

const SECTIONS: { section: Section; href: string; label: string; operatorOnly: boolean }[] = [
  { section: "keys", href: DASHBOARD_PATHS.keys, label: "API keys", operatorOnly: false },
  { section: "profile", href: DASHBOARD_PATHS.profile, label: "Profile", operatorOnly: false },
  { section: "apps", href: DASHBOARD_PATHS.apps, label: "Authorized apps", operatorOnly: false },
  { section: "webhooks", href: DASHBOARD_PATHS.webhooks, label: "Webhooks", operatorOnly: false },
  { section: "watches", href: DASHBOARD_PATHS.watches, label: "Watches", operatorOnly: false },
  { section: "usage", href: DASHBOARD_PATHS.usage, label: "Usage", operatorOnly: false },
  { section: "operator", href: DASHBOARD_PATHS.operator, label: "Operator", operatorOnly: true },
  { section: "explore", href: EXPLORE_HOME_PATH, label: "Explore the catalog", operatorOnly: false },
];

function DashboardNav(props: { current: Section | null; account: AccountView; session: WebSession }) {
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <nav aria-label="Dashboard">
        <ul>
          {SECTIONS.filter((item) => !item.operatorOnly || isOperator(props.account)).map((item) => (
            <li>
              <a href={item.href} aria-current={item.section === props.current ? "page" : undefined}>
                {item.label}
              </a>
            </li>
          ))}
          <li>
            <a href={DOCS_PATHS.reference}>API reference</a>
          </li>
        </ul>
      </nav>
      <div class="account-menu">
        <span class="account-email">{props.account.email}</span>
        <SignOutForm session={props.session} continueTo={DASHBOARD_PATHS.home} />
      </div>
    </>
  );
}

export function DashboardPage(props: {
  title: string;
  current: Section | null;
  account: AccountView;
  session: WebSession;
  children: Child;
  /** A section's own same-origin stylesheets and scripts, after the dashboard's. */
  stylesheets?: readonly string[];
  scripts?: readonly string[];
}) {
  return (
    <Layout
      title={props.title}
      nav={<DashboardNav current={props.current} account={props.account} session={props.session} />}
      stylesheets={[DASHBOARD_PATHS.styles, ...(props.stylesheets ?? [])]}
      scripts={[DASHBOARD_PATHS.copyScript, ...(props.scripts ?? [])]}
    >
      {props.children}
    </Layout>
  );
}

export type PageStatus = 200 | 400 | 403 | 404 | 409 | 500 | 503;

/** Sends a dashboard page; its only script is our own copy script (CSP `script-src 'self'`). */
export function renderDashboard(
  c: Context<DashboardEnv>,
  page: Child,
  status: PageStatus = 200,
): Response | Promise<Response> {
  return renderPage(c, page, { status, allowScripts: true });
}

/** A message on a page of the dashboard: what happened, in words, and what to do. */
export function Notice(props: { kind: "success" | "error"; children: Child }) {
  return props.kind === "error" ? (
    <div class="error" role="alert">
      {props.children}
    </div>
  ) : (
    <div class="success" role="status">
      {props.children}
    </div>
  );
}

/** A page's outcome message, when it has one. */
export function PageMessage(props: { message?: { kind: "success" | "error"; text: string } }) {
  return props.message ? (
    <Notice kind={props.message.kind}>
      <p>{props.message.text}</p>
    </Notice>
  ) : null;
}

/** An error page inside the dashboard (signed in): the navigation stays, the message says what to do. */
export function renderDashboardError(c: Context<DashboardEnv>, status: PageStatus, title: string, detail: string) {
  return renderDashboard(
    c,
    <DashboardPage title={title} current={null} account={c.var.account} session={signedInSession(c)}>
      <h1>{title}</h1>
      <Notice kind="error">
        <p>{detail}</p>
      </Notice>
      <p>
        <a href={DASHBOARD_PATHS.keys}>Back to your API keys</a>
      </p>
      <p class="muted">Request id: {c.get("requestId") ?? "unknown"}</p>
    </DashboardPage>,
    status,
  );
}

/** The page of an unexpected failure (a handler's `onError`): words and the request id, never a problem+json body. */
export function renderUnexpectedError(error: Error, c: Context<DashboardEnv>): Response | Promise<Response> {
  const id = c.get("requestId") ?? "req_unknown";
  console.error(
    JSON.stringify({ level: "error", request_id: id, where: c.req.path, message: String(error?.message ?? error) }),
  );
  return renderPage(
    c,
    <Layout title="Something went wrong">
      <h1>Something went wrong</h1>
      <p class="error">
        This page could not finish this request. Nothing was shown that should not be; try again in a moment.
      </p>
      <p class="muted">If it keeps happening, quote request id {id}.</p>
    </Layout>,
    { status: 500 },
  );
}
