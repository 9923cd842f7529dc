/**
 * GET /docs/errors: every problem `code` the API returns, rendered from PROBLEM_TYPES (the one list
 * of codes, src/worker/http/problem-types.ts). Each code is a section whose `id` is the code, so the `type` URL of
 * a problem (`/docs/errors#<code>`) lands on its explanation.
 */
import type { Context, Hono } from "hono";
import type { AppEnv } from "../http/context";
import { PROBLEM_TYPES, type ProblemCode } from "../http/problem-types";
import { Layout, renderPage } from "../web/page";
import type { WebEnv } from "../web/session";
import { DOCS_PATHS } from "./paths";
import { noQueryParameters } from "../http/strict-query";

const STYLES = `
main { max-width: 48rem; }
section { border-top: 1px solid var(--border); padding: 0.5rem 0; }
section:target { border-left: 4px solid var(--accent); padding-left: 0.75rem; }
h2 { font-size: 1.1rem; margin: 0.5rem 0 0.25rem; }
h2 .status { font-weight: 400; color: var(--muted); }
`;

/** `a \`b\` c` → text and <code> runs: the explanations use backticks for literal values. */
function Explained(props: { text: string }) {
  return <>{props.text.split("`").map((part, index) => (index % 2 === 1 ? <code>{part}</code> : part))}</>;
}

function ProblemSection(props: { code: ProblemCode }) {
  const type: { status: number; title: string; explanation: string; headers?: readonly string[] } =
    PROBLEM_TYPES[props.code];
  return (
    <section id={props.code}>
      <h2>
        <code>{props.code}</code> <span class="status">{`${type.status} ${type.title}`}</span>
      </h2>
      <p>
        <Explained text={type.explanation} />
      </p>
      {type.headers ? <p class="muted">{`Sent with: ${type.headers.join(", ")}.`}</p> : null}
    </section>
  );
}

function ErrorsPage() {
  return (
    <Layout title="Error codes" stylesheets={[DOCS_PATHS.styles]}>
      <h1>Error codes</h1>
      <p>
        Every error of the API is <code>application/problem+json</code> (RFC 9457) with a stable <code>code</code>:
        branch on it, not on <code>detail</code>. Its <code>type</code> links here. Quote <code>request_id</code> (also
        the <code>Request-Id</code> header) when you report a problem. The OAuth endpoints (<code>/oauth/token</code>,{" "}
        <code>/oauth/revoke</code>) answer RFC 6749 errors instead. Every route and its answers:{" "}
        <a href={DOCS_PATHS.reference}>API reference</a>.
      </p>
      {(Object.keys(PROBLEM_TYPES) as ProblemCode[]).map((code) => (
        <ProblemSection code={code} />
      ))}
    </Layout>
  );
}

export function registerErrorsPage(app: Hono<AppEnv>): void {
  app.get(DOCS_PATHS.errors, noQueryParameters(), (c) => renderPage(c as unknown as Context<WebEnv>, <ErrorsPage />));
  app.get(DOCS_PATHS.styles, (c) =>
    c.body(STYLES, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=3600" }),
  );
}
