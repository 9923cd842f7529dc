/**
 * The sign-in form: email and password of the customer's account. Posted to /login with the
 * browser's CSRF token (csrf.tsx) and the page to continue to. Its messages never say whether an email
 * exists (no account enumeration).
 */
import { CsrfField } from "./csrf";
import { Layout } from "./page";
import type { WebSession } from "./session";

export const LOGIN_PATH = "/login";
export const LOGOUT_PATH = "/logout";

export function LoginPage(props: {
  csrfToken: string;
  continueTo: string;
  /** The application asking, when the sign-in is part of an OAuth authorization. */
  appName?: string;
  email?: string;
  error?: string;
}) {
  const heading = props.appName ? `Sign in to continue to ${props.appName}` : "Sign in";
  return (
    <Layout title="Sign in">
      <h1>{heading}</h1>
      {props.error ? (
        <p class="error" role="alert">
          {props.error}
        </p>
      ) : null}
      <form method="post" action={LOGIN_PATH}>
        <CsrfField token={props.csrfToken} />
        <input type="hidden" name="continue" value={props.continueTo} />
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required value={props.email ?? ""} />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <div class="actions">
          <button class="primary" type="submit">
            Sign in
          </button>
        </div>
      </form>
    </Layout>
  );
}

/** What /login shows to someone already signed in who has nowhere to continue to. */
export function SignedInPage(props: { session: WebSession }) {
  return (
    <Layout title="Signed in">
      <h1>You are signed in</h1>
      <p>Signed in as {props.session.email}.</p>
      <SignOutForm session={props.session} continueTo={LOGIN_PATH} />
    </Layout>
  );
}

export function SignOutForm(props: { session: WebSession; continueTo: string; label?: string }) {
  return (
    <form method="post" action={LOGOUT_PATH} class="inline">
      <CsrfField token={props.session.csrfToken} />
      <input type="hidden" name="continue" value={props.continueTo} />
      <button class="link" type="submit">
        {props.label ?? "Sign out"}
      </button>
    </form>
  );
}
