/**
 * The MCP App views as whole HTML documents (docs/mcp.md "A view inside the conversation"): the
 * stage strip of one profile and the comparison table of several, rendered by the same components
 * as the explorer (src/worker/views/), with their styles inline and nothing from any other
 * origin: readable as they are, without script. Each names its release, and each profile's pinned
 * URL and sha256, as text.
 */
import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import type { Profile } from "../../common/catalog/schema";
import { CompareTable, compareSummaryOf } from "../views/compare-table";
import { firstNotReady, StageStrip, StripLegend } from "../views/stage-strip";
import { VIEW_STYLES } from "../views/styles";

/** A profile as a view shows it: the profile, the sha256 of its bytes and its pinned URL. */
interface ViewedProfile {
  profile: Profile;
  sha256: string;
  href: string;
}

/** The page around the shared views: the dashboard's colours (light and dark) and a plain body. */
const APP_STYLES = `
:root { --success: #1e7a34; --warn: #8a5300; --muted: #595959; --border: #c4c4c4; }
@media (prefers-color-scheme: dark) { :root { --success: #7ddc92; --warn: #ffc870; --muted: #b0b0b0; --border: #555; } body { background: #16181d; color: #eceff4; } }
body { font: 15px/1.45 system-ui, sans-serif; margin: 0.75rem; }
h1 { font-size: 1.15rem; margin: 0 0 0.5rem; }
h2 { font-size: 1rem; margin: 1rem 0 0.25rem; }
.muted, .hint { color: var(--muted); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.85em; overflow-wrap: anywhere; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 0.75rem; margin: 0.75rem 0 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
table.compare { border-collapse: collapse; }
table.compare th, table.compare td { border-top: 1px solid var(--border); padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
${VIEW_STYLES}`;

/** A whole document: `<!doctype html>`, the styles inline, and `script` (the shells' only) inline too. */
export async function appDocument(title: string, body: Child, script?: string): Promise<string> {
  const page = (
    <>
      {raw("<!doctype html>")}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{title}</title>
          <style>{raw(APP_STYLES)}</style>
        </head>
        <body>
          <main>{body}</main>
          {script === undefined ? null : <script>{raw(script)}</script>}
        </body>
      </html>
    </>
  );
  return String(await page.toString());
}

function Citation(props: { viewed: ViewedProfile }) {
  return (
    <>
      <dt>Pinned URL</dt>
      <dd>
        <code>{props.viewed.href}</code>
      </dd>
      <dt>SHA-256</dt>
      <dd>
        <code>{props.viewed.sha256}</code>
      </dd>
    </>
  );
}

export function ProfileAppView(props: { releaseId: string; viewed: ViewedProfile }) {
  const { profile } = props.viewed;
  return (
    <>
      <h1>
        {profile.scope.product.name}: {profile.scope.funnel.name}
      </h1>
      <p>
        Grade <strong class="grade">{profile.grade}</strong>, overall {profile.state_label.toLowerCase()} (
        {profile.overall_outcome}); first stage not ready: {firstNotReady(profile)}.
      </p>
      <StageStrip stages={profile.stages} />
      <StripLegend />
      <dl class="facts">
        <dt>Release</dt>
        <dd>
          <code>{props.releaseId}</code>
        </dd>
        <Citation viewed={props.viewed} />
      </dl>
    </>
  );
}

export function CompareAppView(props: { releaseId: string; viewed: ViewedProfile[] }) {
  const profiles = props.viewed.map((one) => one.profile);
  return (
    <>
      <h1>Compare {profiles.length} profiles</h1>
      <p id="compare-summary">{compareSummaryOf(profiles)}</p>
      <CompareTable profiles={profiles} labelledBy="compare-summary" head={(p) => p.scope.product.name} />
      <h2>Sources</h2>
      <dl class="facts">
        <dt>Release</dt>
        <dd>
          <code>{props.releaseId}</code>
        </dd>
      </dl>
      {props.viewed.map((viewed) => (
        <dl class="facts">
          <dt>Profile</dt>
          <dd>
            {viewed.profile.scope.product.name} ({viewed.profile.scope.funnel.key})
          </dd>
          <Citation viewed={viewed} />
        </dl>
      ))}
    </>
  );
}

/** What a shell shows before (or without) the answer it is waiting for. */
export function ShellView(props: { tool: string }) {
  return (
    <p class="hint" id="view-waiting">
      This view shows the answer of {props.tool} when the host delivers it. Without script, read the view the answer
      names in its <code>_meta.ui.resourceUri</code>.
    </p>
  );
}
