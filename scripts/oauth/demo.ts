/**
 * The OAuth part of `npm start`: a demo customer (created through the operator API of the server
 * it starts, with a throwaway operator secret for this run), a demo client on the local production
 * state, and its loopback redirect target (http://127.0.0.1:8789/callback) that finishes the flow the way a real app does:
 * it checks `state` and `iss`, exchanges the code with its PKCE verifier, and prints the tokens
 * with commands that work as pasted.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import type { OAuthEnv } from "../../src/auth/oauth/provider";
import { loadOAuthProvider } from "./library-in-node";

export const DEMO_CLIENT_NAME = "Demo Cheese App";
export const DEMO_CALLBACK_PORT = 8789;
export const DEMO_REDIRECT_URI = `http://127.0.0.1:${DEMO_CALLBACK_PORT}/callback`;
const DEMO_SCOPE = "read:cheeses read:catalog";

const base64url = (bytes: Buffer) => bytes.toString("base64url");

/** Local only: the account `npm start` creates so that the consent page can be tried at once. */
export const DEMO_CUSTOMER = { email: "demo@example.com", password: "demo-cheese-password", name: "Demo Customer" } as const;

/** An OPERATOR_SECRET for this run only, in a file for `wrangler dev --env-file` (mode 0600). */
export function operatorEnvFile(): { envFile: string; operatorSecret: string } {
  const operatorSecret = base64url(randomBytes(32));
  const envFile = path.join(mkdtempSync(path.join(tmpdir(), "readiness-start-")), "operator.env");
  writeFileSync(envFile, `OPERATOR_SECRET=${operatorSecret}\n`, { mode: 0o600 });
  return { envFile, operatorSecret };
}

/** Creates the demo customer through the operator API; an existing one (from an earlier run) is kept. */
export async function seedDemoCustomer(baseUrl: string, operatorSecret: string): Promise<"created" | "existing"> {
  const response = await fetch(new URL("/operator/v1/accounts", baseUrl), {
    method: "POST",
    headers: { Authorization: `Bearer ${operatorSecret}`, "Content-Type": "application/json" },
    body: JSON.stringify(DEMO_CUSTOMER),
  });
  if (response.status === 409) return "existing";
  if (!response.ok) throw new Error(`creating the demo customer failed: ${response.status} ${await response.text()}`);
  return "created";
}

/** The demo client's id: the one registered earlier with the demo redirect URI, or a new public one. */
export async function seedDemoClient(env: Record<string, unknown>): Promise<string> {
  const { registryApi } = await loadOAuthProvider();
  const api = registryApi(env as unknown as OAuthEnv);
  let cursor: string | undefined;
  do {
    const page = await api.listClients({ cursor });
    const existing = page.items.find((client) => client.clientName === DEMO_CLIENT_NAME && client.redirectUris.includes(DEMO_REDIRECT_URI));
    if (existing) return existing.clientId;
    cursor = page.cursor;
  } while (cursor);
  const created = await api.createClient({ clientName: DEMO_CLIENT_NAME, redirectUris: [DEMO_REDIRECT_URI], tokenEndpointAuthMethod: "none" });
  return created.clientId;
}

export interface OAuthDemo {
  /** Open this in a browser to start. */
  authorizeUrl: string;
  /** What `npm start` prints about the flow. */
  instructions: string;
  stop(): Promise<void>;
}

export async function startOAuthDemo(options: { baseUrl: string; clientId: string; log: (text: string) => void }): Promise<OAuthDemo> {
  const verifier = base64url(randomBytes(32));
  const challenge = base64url(createHash("sha256").update(verifier).digest());
  const state = base64url(randomBytes(16));
  const authorizeUrl = new URL("/oauth/authorize", options.baseUrl);
  authorizeUrl.search = new URLSearchParams({
    response_type: "code",
    client_id: options.clientId,
    redirect_uri: DEMO_REDIRECT_URI,
    scope: DEMO_SCOPE,
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
  }).toString();

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", DEMO_REDIRECT_URI);
    if (url.pathname !== "/callback") {
      response.writeHead(404).end();
      return;
    }
    void finish(url, options, verifier, state).then((message) => {
      response.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" });
      response.end(`${message}\n\nThe details are in the terminal that runs npm start.\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(DEMO_CALLBACK_PORT, "127.0.0.1", resolve);
  });
  const instructions = `OAuth 2.0: try the authorization code flow in a browser.
  1. Open ${authorizeUrl}
  2. Sign in as ${DEMO_CUSTOMER.email} / ${DEMO_CUSTOMER.password} and click Allow.
  3. ${DEMO_CLIENT_NAME} (client ${options.clientId}, redirect ${DEMO_REDIRECT_URI}) exchanges the code
     with its PKCE verifier and prints ready-to-paste API calls here.
  Register your own app: npm run clients -- create --name "My App" --redirect-uri http://127.0.0.1:8400/callback --public`;
  return { authorizeUrl: authorizeUrl.toString(), instructions, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** What the demo app does when the browser comes back (RFC 6749 §4.1.2, RFC 9207). */
async function finish(url: URL, options: { baseUrl: string; clientId: string; log: (text: string) => void }, verifier: string, state: string): Promise<string> {
  const params = url.searchParams;
  if (params.get("state") !== state) return report(options, "The state parameter does not match: not our request, ignored.");
  if (params.get("iss") !== new URL(options.baseUrl).origin) return report(options, `Unexpected issuer ${params.get("iss")}: ignored.`);
  if (params.get("error")) return report(options, `The authorization ended with ${params.get("error")}: ${params.get("error_description") ?? ""}`);
  const response = await fetch(new URL("/oauth/token", options.baseUrl), {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: params.get("code") ?? "",
      redirect_uri: DEMO_REDIRECT_URI,
      client_id: options.clientId,
      code_verifier: verifier,
    }),
  });
  const tokens = (await response.json()) as Record<string, string>;
  if (!response.ok) return report(options, `The code exchange failed: ${tokens.error}: ${tokens.error_description}`);
  const base = options.baseUrl;
  options.log(`
[oauth demo] ${DEMO_CLIENT_NAME} received a code and exchanged it (scope: ${tokens.scope}). Try:
  curl -s ${base}/v2/cheeses -H 'Authorization: Bearer ${tokens.access_token}'
  curl -s ${base}/v1/catalog -H 'Authorization: Bearer ${tokens.access_token}' | head -c 300; echo
  curl -s ${base}/oauth/token -d grant_type=refresh_token -d client_id=${options.clientId} -d refresh_token=${tokens.refresh_token}
  curl -s -o /dev/null -w '%{http_code}\\n' ${base}/oauth/revoke -d client_id=${options.clientId} -d token=${tokens.access_token}
`);
  return `Signed in: ${DEMO_CLIENT_NAME} now holds an access token for ${tokens.scope}.`;
}

function report(options: { log: (text: string) => void }, message: string): string {
  options.log(`\n[oauth demo] ${message}\n`);
  return message;
}
