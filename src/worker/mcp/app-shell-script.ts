/**
 * The one script of the MCP App shells: the smallest view side of SEP-1865 (the `ui/initialize`
 * handshake over `postMessage` with the host), then, when the host delivers the tool's result
 * (`ui/notifications/tool-result`), it asks the host to read the rendered view the result names in
 * `_meta.ui.resourceUri` (`resources/read`, proxied to this server) and shows its body. It loads
 * nothing itself, from anywhere. ext-apps' own view side (`App`) inlined with its dependencies is
 * 529 KiB (`app-with-deps.js`), far over the 30 KB a view may weigh (docs/mcp.md): hence by hand.
 */
import { APP_SHELL_URI } from "./app-uris";

/** ext-apps 2.0.4 `LATEST_PROTOCOL_VERSION` (the package exports it only from its view side). */
const APPS_PROTOCOL_VERSION = "2026-01-26";

const ROOT = APP_SHELL_URI.profile.slice(0, APP_SHELL_URI.profile.lastIndexOf("/") + 1);

export const SHELL_SCRIPT = `"use strict";
(function () {
  var next = 0, pending = {};
  function send(message) { message.jsonrpc = "2.0"; window.parent.postMessage(message, "*"); }
  function ask(method, params) { next += 1; pending[next] = method; send({ id: next, method: method, params: params }); }
  function show(html) {
    var body = new DOMParser().parseFromString(html, "text/html").body;
    document.body.replaceWith(document.adoptNode(body));
  }
  window.addEventListener("message", function (event) {
    var m = event.data;
    if (event.source !== window.parent || !m || m.jsonrpc !== "2.0") return;
    if (m.method === undefined && pending[m.id]) {
      var method = pending[m.id];
      delete pending[m.id];
      if (method === "ui/initialize" && m.result) send({ method: "ui/notifications/initialized", params: {} });
      if (method === "resources/read" && m.result && m.result.contents[0]) show(m.result.contents[0].text);
    } else if (m.method === "ui/notifications/tool-result") {
      var uri = m.params && m.params._meta && m.params._meta.ui && m.params._meta.ui.resourceUri;
      if (typeof uri === "string" && uri.indexOf(${JSON.stringify(ROOT)}) === 0) ask("resources/read", { uri: uri });
    } else if (m.method !== undefined && m.id !== undefined) {
      send({ id: m.id, result: {} });
    }
  });
  ask("ui/initialize", {
    appInfo: { name: "readiness-catalog-view", version: "1.0.0" },
    appCapabilities: {},
    protocolVersion: ${JSON.stringify(APPS_PROTOCOL_VERSION)}
  });
})();
`;
