/**
 * The Watches page, always for the signed-in account, through the same D1 calls as /v1/watches:
 *
 * - GET  /dashboard/watches[?query=…]   the list with each last event, and the create form
 *   (`query` prefills the filter: a link from the explorer creates its view's watch in one click)
 * - POST /dashboard/watches             create, checked by the API's own body schema
 * - POST /dashboard/watches/:id/delete  delete, then 303 to the list
 */
import type { Context, Hono } from "hono";
import { eventsOf } from "../watches/event-store";
import { CreateWatchBody, WATCH_ID_PATTERN } from "../watches/schemas";
import { watchQueryOf } from "../watches/watch-query";
import { deleteWatch, insertWatch, viewOfWatch, watchesOf } from "../watches/watch-store";
import { DASHBOARD_PATHS, signedInSession, type DashboardEnv } from "./context";
import { renderDashboard, renderDashboardError, type PageStatus } from "./page";
import { type WatchMessage, WatchesPage } from "./watches-page";

async function renderList(
  c: Context<DashboardEnv>,
  view: { message?: WatchMessage; query?: string },
  status: PageStatus = 200,
) {
  const db = c.env.CATALOG_DB;
  const watches = await watchesOf(db, c.var.account.id, 50);
  const rows = await Promise.all(
    watches.map(async (row) => ({ watch: viewOfWatch(row), last: (await eventsOf(db, row.id, 1))[0] ?? null })),
  );
  const page = (
    <WatchesPage
      account={c.var.account}
      session={signedInSession(c)}
      rows={rows}
      query={view.query ?? c.req.query("query") ?? ""}
      message={view.message}
    />
  );
  return renderDashboard(c, page, status);
}

/** A line of the profiles box: an `arp_` id, or `product/funnel`. */
const refOf = (line: string) => {
  const [product, funnel, ...rest] = line.split("/");
  return funnel !== undefined && rest.length === 0 && product !== undefined ? { product, funnel } : line;
};

async function create(c: Context<DashboardEnv>) {
  const form = await c.req.formData();
  const query = String(form.get("query") ?? "").trim();
  const lines = String(form.get("profiles") ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const body = {
    name: String(form.get("name") ?? "").trim(),
    ...(query ? { query } : {}),
    ...(lines.length > 0 ? { profiles: lines.map(refOf) } : {}),
  };
  const parsed = CreateWatchBody.safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "the form"}: ${issue.message}`);
    return renderList(c, { query, message: { kind: "error", text: `Not created: ${problems.join("; ")}.` } }, 400);
  }
  const checked = parsed.data.query === undefined ? undefined : watchQueryOf(parsed.data.query);
  const watch = await insertWatch(c.env.CATALOG_DB, c.var.account.id, {
    name: parsed.data.name,
    ...(checked?.ok ? { query: { canonical: checked.canonical, filter: checked.filter } } : {}),
    ...(parsed.data.profiles ? { profiles: parsed.data.profiles } : {}),
  });
  if (!watch)
    return renderList(c, { query, message: { kind: "error", text: "Not created: you already have 50 watches." } }, 409);
  return renderList(c, { message: { kind: "success", text: `Watch "${watch.name}" created.` } });
}

async function remove(c: Context<DashboardEnv>) {
  const id = c.req.param("id") ?? "";
  const deleted = WATCH_ID_PATTERN.test(id) ? await deleteWatch(c.env.CATALOG_DB, c.var.account.id, id) : null;
  if (!deleted)
    return renderDashboardError(
      c,
      404,
      "Watch not found",
      "Your account has no watch with that id. Nothing was changed.",
    );
  return c.redirect(DASHBOARD_PATHS.watches, 303);
}

export function registerWatchPages(dashboard: Hono<DashboardEnv>): void {
  dashboard.get(DASHBOARD_PATHS.watches, (c) => renderList(c, {}));
  dashboard.post(DASHBOARD_PATHS.watches, create);
  dashboard.post(`${DASHBOARD_PATHS.watches}/:id/delete`, remove);
}
