/**
 * The consent page: which application asks (a Client ID Metadata Document client by the host that
 * published its document, which this server fetched, so it is verified: "the app at tools.example";
 * a registered one by the name its author chose, which the page says is unchecked), where the answer goes (the redirect URI's host, with a warning for an app on this
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
  /** The host of a metadata document client's `client_id` URL; absent for a registered client. */
  verifiedHost?: string;
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
  const appName = facts.verifiedHost ? `the app at ${facts.verifiedHost}` : facts.clientName;
  return (
    <Layout title={`Allow ${appName}?`}>
      <h1>Allow {appName} to use your account?</h1>
      <p>
        Signed in as <strong>{props.session.email}</strong>.{" "}
        <SignOutForm session={props.session} continueTo={props.continueTo} label="Not you? Sign out" />
      </p>
      <ClientNotice facts={facts} />
      <p>{appName} is asking to:</p>
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
          {appName} gets everything else now; full access follows once an operator approves it.
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

/** Who vouches for the name: the host that published the document, or nobody (a registered app). */
function ClientNotice({ facts }: { facts: ConsentFacts }) {
  if (facts.verifiedHost)
    return (
      <p class="notice">
        This app describes itself in a document published at <strong>{facts.verifiedHost}</strong>, which this server
        fetched from there: the host is verified. The name it gives itself, “{facts.clientName}”, is its own claim.
      </p>
    );
  return (
    <p class="notice">
      “{facts.clientName}” is the name the app's author gave it; nobody here checked it (the app registered itself under
      that name). Where you will be sent, below, is what tells you who you are dealing with.
    </p>
  );
}
