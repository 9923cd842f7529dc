/**
 * The page the OAuth demo app's callback answers the browser with: styled like the worker's own
 * pages (the same stylesheet, inlined, since this page comes from another origin), a real
 * `<title>`, and every dynamic text escaped (an error description comes from the query string).
 * The CSP allows that one stylesheet by its hash and the inline icon, nothing else.
 */
import { createHash } from "node:crypto";
import { FAVICON_SVG } from "../../common/web/favicon";
import { WEB_STYLES } from "../../common/web/web-styles";

export interface CallbackOutcome {
  ok: boolean;
  heading: string;
  message: string;
  /** A code the demo app did not exchange (a flow by hand): shown with the command that exchanges it. */
  byHand?: { code: string; command: string };
}

const escapeHtml = (text: string) =>
  text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");

const ICON = `data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}`;

export const CALLBACK_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(WEB_STYLES).digest("base64")}'`,
  "img-src data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

function byHandPart(byHand: { code: string; command: string }): string {
  return `<p>The code: <code>${escapeHtml(byHand.code)}</code></p>
<p>Exchange it within <strong>60 seconds</strong> (it works once), in the shell where <code>CODE_VERIFIER</code> holds your PKCE verifier:</p>
<pre class="wrap"><code>${escapeHtml(byHand.command)}</code></pre>`;
}

export function callbackPage(appName: string, outcome: CallbackOutcome): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${outcome.heading} · ${appName}`)}</title>
<link rel="icon" href="${ICON}" type="image/svg+xml">
<style>${WEB_STYLES}</style>
</head>
<body>
<header>${escapeHtml(appName)} <span class="muted">(the OAuth demo app of npm start)</span></header>
<main id="main">
<h1>${escapeHtml(outcome.heading)}</h1>
<p class="${outcome.ok ? "notice" : "error"}">${escapeHtml(outcome.message)}</p>
${outcome.byHand ? byHandPart(outcome.byHand) : `<p class="muted">The details, with commands to try the token, are in the terminal that runs <code>npm start</code>. You can close this page.</p>`}
</main>
</body>
</html>
`;
}
