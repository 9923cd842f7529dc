/**
 * The explorer's stylesheet and its one script, served from our origin (CSP `style-src 'self'`,
 * `script-src 'self'`), after the dashboard's. The script only improves the page: a filter applies
 * as soon as it changes (the form is a GET, so the URL and the back button follow), and focus comes
 * back to the control that was changed. Without it, the "Apply filters" button does the same.
 */
import type { Hono } from "hono";
import type { DashboardEnv } from "../dashboard/context";
import { VIEW_STYLES } from "../views/styles";
import { EXPLORE_PATHS } from "./paths";

const STYLES = `${VIEW_STYLES}
main { max-width: 84rem; }
.explore-layout { display: grid; gap: 1.5rem; }
@media (min-width: 56rem) { .explore-layout { grid-template-columns: 19rem minmax(0, 1fr); align-items: start; } }
.filter-panel > summary { cursor: pointer; padding: 0.5rem 0; }
.filter-panel > summary h2 { display: inline; margin: 0; font-size: 1.25rem; }
/* A wide screen has room for the filters beside the results: the panel is always open there. */
@supports selector(::details-content) {
  @media (min-width: 56rem) {
    .filter-panel::details-content { content-visibility: visible; block-size: auto; }
    .filter-panel > summary { cursor: default; list-style: none; pointer-events: none; }
    .filter-panel > summary::-webkit-details-marker { display: none; }
  }
}
.filters label:not(.choice) { display: block; font-weight: 600; margin-top: 0.75rem; }
.filters input[type=search], .filters select { width: 100%; box-sizing: border-box; padding: 0.5rem; font: inherit; border: 1px solid var(--border); border-radius: 6px; background: transparent; color: inherit; }
.filters select option { color: #000; }
.filters fieldset { margin-top: 0.75rem; }
.filters label.choice { margin: 0.25rem 0; }
.facet-value { flex: 1; overflow-wrap: anywhere; }
.facet-count { color: var(--muted); font-variant-numeric: tabular-nums; }
.release-line { overflow-wrap: anywhere; }
.charts { display: flex; flex-wrap: wrap; gap: 1rem 2rem; }
.chart { margin: 0; max-width: 100%; }
.chart svg { max-width: 100%; height: auto; }
.chart figcaption { font-weight: 600; margin-bottom: 0.25rem; }
.chart text { fill: currentColor; font-size: 12px; }
.chart .chart-note { fill: var(--muted); font-size: 11px; }
.bar-grade { fill: var(--accent); }
.bar-ready { fill: var(--success); }
.bar-limited { fill: var(--warn); }
.chart .grid-line { stroke: var(--border); stroke-width: 1; }
.chart .grade-line { fill: none; stroke: var(--accent); stroke-width: 2; }
.chart .grade-point { fill: var(--accent); }
table.timeline td, table.timeline th { white-space: nowrap; }
table.timeline td.state-ready { color: var(--success); }
table.timeline td.state-limited { color: var(--warn); }
code.release-id { font-size: 0.8rem; }
.pager { display: flex; gap: 1rem; align-items: center; margin: 1rem 0; }
.problems { margin: 0.5rem 0 0; padding-left: 1.25rem; }
.stage-list { list-style: none; padding: 0; display: grid; gap: 0.75rem; }
.stage-item { border: 1px solid var(--border); border-left-width: 4px; border-radius: 6px; padding: 0.75rem 1rem; }
.stage-item.state-ready { border-left-color: var(--success); }
.stage-item.state-limited { border-left-color: var(--warn); }
.finding { font-weight: 600; margin: 0.25rem 0; }
dl.facts { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: 0.25rem 1rem; margin: 0.5rem 0; }
dl.facts dt { font-weight: 600; color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
meter { display: block; width: 100%; max-width: 28rem; height: 1.25rem; margin: 0.25rem 0 0.75rem; }
@media (max-width: 40rem) {
  dl.facts { grid-template-columns: 1fr; }
  table.cards.explore-results td { padding-left: 6.75rem; }
}
`;

const SCRIPT = `"use strict";
(function () {
  var form = document.querySelector("form[data-explore-form]");
  if (!form) return;
  var KEY = "explore-focus";
  var focused = sessionStorage.getItem(KEY);
  if (focused) {
    sessionStorage.removeItem(KEY);
    var again = document.getElementById(focused);
    if (again) again.focus();
  }
  form.querySelectorAll("input[type=checkbox], select").forEach(function (control) {
    control.addEventListener("change", function () {
      if (control.id) sessionStorage.setItem(KEY, control.id);
      form.requestSubmit();
    });
  });
})();
`;

export function registerExploreAssets(app: Hono<DashboardEnv>): void {
  app.get(EXPLORE_PATHS.styles, (c) =>
    c.body(STYLES, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=3600" }),
  );
  app.get(EXPLORE_PATHS.script, (c) =>
    c.body(SCRIPT, 200, {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
      "X-Content-Type-Options": "nosniff",
    }),
  );
}
