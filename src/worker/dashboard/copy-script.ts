/**
 * The dashboard's only script, served from our origin so the CSP stays `script-src 'self'`:
 * it reveals each Copy button (hidden without script) and copies its field to the clipboard,
 * announcing the result in a live region. Without it, the secret is still a selectable field.
 */
import type { Hono } from "hono";
import { DASHBOARD_PATHS, type DashboardEnv } from "./context";

const COPY_SCRIPT = `"use strict";
document.querySelectorAll("button[data-copy-target]").forEach(function (button) {
  var field = document.getElementById(button.getAttribute("data-copy-target"));
  var status = document.getElementById(button.getAttribute("data-copy-status"));
  if (!field) return;
  button.hidden = false;
  button.addEventListener("click", function () {
    field.focus();
    field.select();
    var say = function (text) { if (status) status.textContent = text; };
    var fallback = function () {
      say(document.execCommand && document.execCommand("copy") ? "Copied to the clipboard." : "Press Ctrl+C (or Cmd+C) to copy the selected key.");
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () { say("Copied to the clipboard."); }, fallback);
    } else {
      fallback();
    }
  });
});
`;

export function registerCopyScript(app: Hono<DashboardEnv>): void {
  app.get(DASHBOARD_PATHS.copyScript, (c) =>
    c.body(COPY_SCRIPT, 200, {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
      "X-Content-Type-Options": "nosniff",
    }),
  );
}
