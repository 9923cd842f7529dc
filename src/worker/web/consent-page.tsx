/**
 * The consent page: which application asks (by the name its author chose, which the page says is
 * unchecked), where the answer goes (the redirect URI's host, with a warning for an app on this
 * computer), and each requested scope in plain words. The customer allows or denies; the form
 * carries the library's one-time consent handle and our CSRF token.
 */
import { SCOPE_WORDS } from "../auth/oauth/scope-words";
import { ADMIN_SCOPE, isScope } from "../../common/auth/scopes";
import { CsrfField } from "./csrf";
import { SignOutForm } from "./login-page";
import { Layout } from "./page";
import type { WebSession } from "./session";

export interface ConsentFacts {
  clientName: string;
  redirectHost: string;
  redirectIsLoopback: boolean;
  scopes: readonly string[];
}

export function ConsentPage(props: {
  session: WebSession;
  facts: ConsentFacts;
  handle: string;
  action: string;
  continueTo: string;
}) {
  const { facts } = props;
  return (
    <Layout title={`Allow ${facts.clientName}?`}>
      <h1>Allow {facts.clientName} to use your account?</h1>
      <p>
        Signed in as <strong>{props.session.email}</strong>.{" "}
        <SignOutForm session={props.session} continueTo={props.continueTo} label="Not you? Sign out" />
      </p>
      <p class="notice">
        “{facts.clientName}” is the name the app's author gave it; nobody here checked it. Where you will be sent,
        below, is what tells you who you are dealing with.
      </p>
      <p>{facts.clientName} is asking to:</p>
      <ul class="scopes">
        {facts.scopes.map((scope) => (
          <li>
            {isScope(scope) ? SCOPE_WORDS[scope] : scope} <code>{scope}</code>
          </li>
        ))}
      </ul>
      {facts.scopes.includes(ADMIN_SCOPE) ? (
        <p class="notice">
          Full access (<code>admin</code>) needs an operator's approval. If you allow, your request is recorded and{" "}
          {facts.clientName} gets everything else now; full access follows once an operator approves it.
        </p>
      ) : null}
      <p>
        If you allow, you will be sent back to <strong>{facts.redirectHost}</strong>.
      </p>
      {facts.redirectIsLoopback ? (
        <p class="notice">
          That is an application on your own computer. Continue only if you just started signing in from it: any program
          on this computer could be listening there, whatever name it gives.
        </p>
      ) : null}
      <form method="post" action={props.action}>
        <CsrfField token={props.session.csrfToken} />
        <input type="hidden" name="handle" value={props.handle} />
        <div class="actions">
          <button class="primary" type="submit" name="decision" value="approve">
            Allow
          </button>
          <button class="secondary" type="submit" name="decision" value="deny">
            Deny
          </button>
        </div>
      </form>
    </Layout>
  );
}
