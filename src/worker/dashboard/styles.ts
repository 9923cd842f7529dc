/**
 * The dashboard's stylesheet, loaded after the web pages' own (src/worker/web/styles.ts) and served from
 * our origin (CSP `style-src 'self'`). Wider pages, navigation, tables that become cards at phone
 * width, visible keyboard focus, and colours that keep WCAG AA contrast in light and dark mode.
 */
import type { Hono } from "hono";
import { DASHBOARD_PATHS, type DashboardEnv } from "./context";

const STYLES = `
:root { --accent: #2f5bd3; --accent-text: #fff; --danger: #b3261e; --success: #1e7a34; --warn: #8a5300; --muted: #595959; --border: #c4c4c4; --surface: rgba(0, 0, 0, 0.03); }
@media (prefers-color-scheme: dark) {
  :root { --accent: #9db7ff; --accent-text: #0b1a40; --danger: #ff8a80; --success: #7ddc92; --warn: #ffc870; --muted: #b0b0b0; --border: #555; --surface: rgba(255, 255, 255, 0.05); }
  body { background: #16181d; color: #eceff4; }
}
body { -webkit-text-size-adjust: 100%; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1.5rem; }
header nav ul { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; margin: 0; padding: 0; list-style: none; }
header nav a { color: inherit; font-weight: 500; text-decoration: none; padding: 0.25rem 0; border-bottom: 2px solid transparent; }
header nav a:hover { border-bottom-color: var(--border); }
header nav a[aria-current="page"] { border-bottom-color: var(--accent); color: var(--accent); }
.account-menu { margin-left: auto; display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.75rem; font-weight: 400; font-size: 0.95rem; }
.account-email { color: var(--muted); overflow-wrap: anywhere; }
.skip-link { position: absolute; left: -999px; top: 0.5rem; background: var(--accent); color: var(--accent-text); padding: 0.5rem 1rem; border-radius: 6px; z-index: 10; }
.skip-link:focus { left: 0.5rem; }
main { max-width: 64rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 0.75rem; }
h3 { font-size: 1.05rem; margin: 0 0 0.25rem; }
a { color: var(--accent); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; overflow-wrap: anywhere; }
code.key { white-space: nowrap; }
th { white-space: nowrap; }
pre { background: var(--surface); border: 1px solid var(--border); border-radius: 6px; padding: 0.75rem; overflow-x: auto; white-space: pre-wrap; }
pre.command { white-space: pre; }
pre.command code { overflow-wrap: normal; }
.lead { color: var(--muted); }
.muted, .hint { color: var(--muted); }
.hint { font-size: 0.9rem; margin: 0.25rem 0 0.75rem; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
button, a.button { display: inline-block; font: inherit; line-height: 1.3; padding: 0.55rem 1.1rem; border-radius: 6px; border: 1px solid var(--accent); cursor: pointer; text-decoration: none; text-align: center; }
button.primary, a.button.primary { background: var(--accent); color: var(--accent-text); }
button.secondary, a.button.secondary { background: transparent; color: inherit; border-color: var(--border); }
button.danger, a.button.danger { background: transparent; color: var(--danger); border-color: var(--danger); }
button.danger:hover, a.button.danger:hover { background: var(--danger); color: #fff; }
form > button.danger { background: var(--danger); color: #fff; }
@media (prefers-color-scheme: dark) { form > button.danger, button.danger:hover, a.button.danger:hover { color: #2a0300; } }
button.link { color: var(--accent); }
.actions { flex-wrap: wrap; align-items: center; }
.actions.compact { margin-top: 0; gap: 0.5rem; }
@media (min-width: 40.01rem) { .actions.compact { flex-wrap: nowrap; } }
.error, .success, .notice, .warning { border-radius: 0 6px 6px 0; }
.error > p, .success > p { margin: 0; }
.success { padding: 0.75rem 1rem; border-left: 4px solid var(--success); background: rgba(30, 122, 52, 0.1); }
.warning { padding: 0.75rem 1rem; border-left: 4px solid var(--warn); background: rgba(178, 107, 0, 0.12); }
.section-heading { display: flex; align-items: baseline; justify-content: space-between; gap: 1rem; }
.count { color: var(--muted); margin: 0; }
.empty { padding: 1rem; border: 1px dashed var(--border); border-radius: 6px; color: var(--muted); }
table { width: 100%; border-collapse: collapse; font-size: 0.95rem; }
th { text-align: left; font-weight: 600; color: var(--muted); border-bottom: 2px solid var(--border); padding: 0.5rem; }
td { border-bottom: 1px solid var(--border); padding: 0.6rem 0.5rem; vertical-align: top; }
tr.revoked td { color: var(--muted); }
.badge { display: inline-block; padding: 0.05rem 0.5rem; border-radius: 999px; font-size: 0.8rem; font-weight: 600; border: 1px solid currentColor; }
.mode-live { color: var(--accent); }
.mode-test { color: var(--warn); }
.status-active { color: var(--success); }
.status-revoked { color: var(--muted); }
.status-pending { color: var(--warn); }
.status-enabled, .status-succeeded { color: var(--success); }
.status-disabled, .status-failed { color: var(--danger); }
.columns { display: grid; gap: 1.5rem; margin-top: 2rem; }
@media (min-width: 56rem) { .columns { grid-template-columns: 3fr 2fr; align-items: start; } }
.panel { border: 1px solid var(--border); border-radius: 8px; padding: 0 1.25rem 1.25rem; }
.panel ol { padding-left: 1.25rem; }
.panel ol li { margin-bottom: 0.5rem; }
input[type=text] { width: 100%; padding: 0.6rem; font: inherit; border: 1px solid var(--border); border-radius: 6px; background: transparent; color: inherit; }
input[aria-invalid="true"] { border-color: var(--danger); }
.optional { font-weight: 400; color: var(--muted); }
fieldset { border: 1px solid var(--border); border-radius: 6px; margin: 1.25rem 0 0; padding: 0.5rem 1rem 0.75rem; }
legend { font-weight: 600; padding: 0 0.25rem; }
label.choice { display: flex; gap: 0.6rem; align-items: baseline; font-weight: 400; margin: 0.5rem 0; }
label.choice input { flex: none; width: 1.1rem; height: 1.1rem; }
label.choice code { color: var(--muted); white-space: nowrap; }
.scope-choices { margin: 0.25rem 0 0 1.7rem; }
.field-error { color: var(--danger); font-weight: 600; margin: 0.25rem 0 0.75rem; }
.new-key { border: 2px solid var(--success); border-radius: 8px; padding: 0.25rem 1.25rem 1rem; margin: 1.5rem 0; }
.copy-row { display: flex; gap: 0.5rem; }
.copy-row input.secret { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; min-width: 0; }
.scope-list { padding-left: 1.2rem; margin: 0.25rem 0 0.75rem; }
.scope-list code { color: var(--muted); }
.app-list { list-style: none; padding: 0; display: grid; gap: 1rem; }
.app-card { border: 1px solid var(--border); border-radius: 8px; padding: 1rem 1.25rem; }
.app-card p { margin: 0.25rem 0; }
.app-card .button { margin-top: 0.75rem; }
.confirm { max-width: 36rem; overflow-wrap: anywhere; }
.usage-choices ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; margin: 0.5rem 0; }
.usage-choices a[aria-current="page"] { font-weight: 700; }
.usage-chart { margin: 1rem 0; }
.usage-chart svg { width: 100%; height: 12rem; border-bottom: 1px solid var(--border); }
.bar-requests { fill: var(--accent); background: var(--accent); }
.bar-errors { fill: var(--warn); background: var(--warn); }
.bar-limited { fill: var(--danger); background: var(--danger); }
.axis { stroke: var(--border); }
.axis-label { fill: var(--muted); font-size: 12px; }
.swatch { display: inline-block; width: 0.8rem; height: 0.8rem; vertical-align: middle; }
caption { text-align: left; font-weight: 600; margin: 1rem 0 0.25rem; }
@media (max-width: 40rem) {
  header { padding: 0.75rem 1rem; }
  main { padding: 0 1rem; margin: 1.25rem auto; }
  .account-menu { margin-left: 0; width: 100%; }
  table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; width: 100%; }
  table.cards caption:not(.visually-hidden) { display: block; width: 100%; }
  table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.cards tr { border: 1px solid var(--border); border-radius: 8px; margin-bottom: 0.75rem; padding: 0.4rem 0.75rem; }
  table.cards td { position: relative; border-bottom: none; padding: 0.3rem 0 0.3rem 6.75rem; min-height: 2rem; overflow-wrap: anywhere; }
  table.cards td::before { content: attr(data-label); position: absolute; left: 0; top: 0.3rem; width: 6.25rem; font-weight: 600; color: var(--muted); }
  table.cards td[data-label="Actions"] { padding-left: 0; }
  table.cards td[data-label="Actions"]::before { content: none; }
  table.cards td:empty { display: none; }
  .copy-row { flex-direction: column; }
}
`;

export function registerDashboardStyles(app: Hono<DashboardEnv>): void {
  app.get(DASHBOARD_PATHS.styles, (c) =>
    c.body(STYLES, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=3600" }),
  );
}
