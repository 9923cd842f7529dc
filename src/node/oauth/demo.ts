/**
 * The OAuth part of `npm start`: a demo client on the local production state, and its loopback
 * redirect target (http://127.0.0.1:<port>/callback, port 8789 by default) that finishes the flow
 * the way a real app does: it checks `state` and `iss`, exchanges the code with its PKCE verifier,
 * and prints the tokens with commands that work as pasted. The demo asks for `admin` too, so that
 * the approval path can be tried: the token comes without it until an operator approves.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { expectDefined } from "../../common/expect";
import type { OAuthEnv } from "../../worker/auth/oauth/provider";
import { CALLBACK_PAGE_CSP, callbackPage, type CallbackOutcome } from "./callback-page";
import { loadOAuthProvider } from "./library-in-node";

export const DEMO_CLIENT_NAME = "Readiness Demo App";
export const DEMO_CALLBACK_PORT = 8789;
const DEMO_SCOPE = "read:catalog admin";
const SEALED_CODE = /^oac_[A-Za-z0-9_-]{1,600}$/;

const base64url = (bytes: Buffer) => bytes.toString("base64url");
export const demoRedirectUri = (port: number) => `http://127.0.0.1:${port}/callback`;

/** The demo client's id: the one registered earlier with this redirect URI, or a new public one. */
export async function seedDemoClient(env: Record<string, unknown>, redirectUri: string): Promise<string> {
  const { registerClient, registryApi } = await loadOAuthProvider();
  const api = registryApi(env as unknown as OAuthEnv);
  let cursor: string | undefined;
  do {
    const page = await api.listClients({ cursor });
    const existing = page.items.find(
      (client) => client.clientName === DEMO_CLIENT_NAME && client.redirectUris.includes(redirectUri),
    );
    if (existing) return existing.clientId;
    cursor = page.cursor;
  } while (cursor);
  const created = await registerClient(api, { name: DEMO_CLIENT_NAME, redirectUris: [redirectUri], isPublic: true });
  return created.clientId;
}

interface OAuthDemoOptions {
  baseUrl: string;
  clientId: string;
  port: number;
  /** The demo customer's account id, for the approval command the demo prints. */
  accountId: string;
  /** How `npm run operator` reaches these servers (e.g. " --port=9000"), empty for the default ports. */
  keysCliFlags: string;
  log: (text: string) => void;
}

export interface OAuthDemo {
  /** Open this in a browser to start. */
  authorizeUrl: string;
  redirectUri: string;
  stop(): Promise<void>;
}

export async function startOAuthDemo(options: OAuthDemoOptions): Promise<OAuthDemo> {
  const redirectUri = demoRedirectUri(options.port);
  const verifier = base64url(randomBytes(32));
  const state = base64url(randomBytes(16));
  const authorizeUrl = new URL("/oauth/authorize", options.baseUrl);
  authorizeUrl.search = new URLSearchParams({
    response_type: "code",
    client_id: options.clientId,
    redirect_uri: redirectUri,
    scope: DEMO_SCOPE,
    state,
    code_challenge: base64url(createHash("sha256").update(verifier).digest()),
    code_challenge_method: "S256",
  }).toString();

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", redirectUri);
    if (url.pathname !== "/callback") {
      response.writeHead(404).end();
      return;
    }
    void finish(url, { ...options, redirectUri, verifier, state }).then((outcome) => {
      response.writeHead(outcome.ok ? 200 : 400, {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": CALLBACK_PAGE_CSP,
        "Cache-Control": "no-store",
      });
      response.end(callbackPage(DEMO_CLIENT_NAME, outcome));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", resolve);
  });
  return {
    authorizeUrl: authorizeUrl.toString(),
    redirectUri,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Flow = OAuthDemoOptions & { redirectUri: string; verifier: string; state: string };

/** What the demo app does when the browser comes back (RFC 6749 §4.1.2, RFC 9207). */
async function finish(url: URL, flow: Flow): Promise<CallbackOutcome> {
  const params = url.searchParams;
  const code = params.get("code");
  const ours = params.get("state") === flow.state;
  if (!ours && !code) return report(flow, "The state parameter does not match: not our request, ignored.");
  if (params.get("iss") !== new URL(flow.baseUrl).origin)
    return report(flow, `Unexpected issuer ${params.get("iss")}: ignored.`);
  if (!ours && code) {
    // Only the form our server issues goes into a command meant to be pasted into a shell.
    if (!SEALED_CODE.test(code)) return report(flow, "The code is not one this server issues (oac_…): ignored.");
    return byHand(flow, code);
  }
  if (params.get("error"))
    return report(
      flow,
      `The authorization ended with ${params.get("error")}: ${params.get("error_description") ?? ""}`,
    );
  const response = await fetch(new URL("/oauth/token", flow.baseUrl), {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: params.get("code") ?? "",
      redirect_uri: flow.redirectUri,
      client_id: flow.clientId,
      code_verifier: flow.verifier,
    }),
  });
  const tokens = (await response.json()) as Record<string, string>;
  if (!response.ok) return report(flow, `The code exchange failed: ${tokens.error}: ${tokens.error_description}`);
  const base = flow.baseUrl;
  const granted = expectDefined(tokens.scope, "the granted scope in a successful token response");
  const adminWaits = !granted.split(" ").includes("admin");
  flow.log(
    [
      "",
      `[oauth demo] ${DEMO_CLIENT_NAME} exchanged the code; its token has: ${tokens.scope}${adminWaits ? " (admin waits for an operator)" : ""}. Try:`,
      `  curl -s ${base}/v1/catalog -H 'Authorization: Bearer ${tokens.access_token}' | head -c 300; echo`,
      `  curl -s ${base}/v1/releases/current -H 'Authorization: Bearer ${tokens.access_token}'; echo`,
      ...(adminWaits
        ? [
            `  npm run operator -- approve-admin --account=${flow.accountId} --client=${flow.clientId}${flow.keysCliFlags}   # or Approve at ${base}/dashboard/operator`,
          ]
        : []),
      `  curl -s ${base}/oauth/token -d grant_type=refresh_token -d client_id=${flow.clientId} -d refresh_token=${tokens.refresh_token}`,
      `  curl -s -o /dev/null -w '%{http_code}\\n' ${base}/oauth/revoke -d client_id=${flow.clientId} -d token=${tokens.access_token}`,
      "",
    ].join("\n"),
  );
  return {
    ok: true,
    heading: "Signed in",
    message: `Signed in: ${DEMO_CLIENT_NAME} now holds an access token for ${tokens.scope}.`,
  };
}

/**
 * A code from an authorization started by hand (docs/oauth.md, "By hand"): not the demo app's
 * state, so the demo does not exchange it; whoever started it holds the PKCE verifier. The page
 * and the terminal show the code and the exact command that exchanges it.
 */
function byHand(flow: Flow, code: string): CallbackOutcome {
  const command = [
    `curl -s ${flow.baseUrl}/oauth/token -d grant_type=authorization_code`,
    `-d code=${code}`,
    `-d redirect_uri=${flow.redirectUri}`,
    `-d client_id=${flow.clientId}`,
    `-d code_verifier="$CODE_VERIFIER"`,
  ].join(" ");
  flow.log(`\n[oauth demo] a code from an authorization by hand; exchange it within 60 s:\n  ${command}\n`);
  return {
    ok: true,
    heading: "Code received",
    message:
      "This authorization was started by hand (its state is not the demo app's), so the demo app left the code to you.",
    byHand: { code, command },
  };
}

function report(flow: { log: (text: string) => void }, message: string): CallbackOutcome {
  flow.log(`\n[oauth demo] ${message}\n`);
  return { ok: false, heading: "Not signed in", message };
}
