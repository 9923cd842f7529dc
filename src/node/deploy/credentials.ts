/**
 * Who deploys: the credential wrangler itself would use (CLOUDFLARE_API_TOKEN, else the OAuth token
 * of `wrangler login`, read through `wrangler auth token --json`) and the account to deploy to
 * (CLOUDFLARE_ACCOUNT_ID, else the only account the credential can see). Stops with what to do when
 * neither credential is there, or the API refuses it.
 */
import { ApiError, CloudflareApi, DEFAULT_API_BASE_URL } from "./cloudflare-api";
import { type Environment, wrangler, WranglerFailed } from "./wrangler-cli";

export class NotLoggedIn extends Error {}

export interface Credentials {
  token: string;
  /** Where the token came from, for messages. */
  source: "CLOUDFLARE_API_TOKEN" | "wrangler login";
}

/** `env` is where CLOUDFLARE_API_TOKEN is read, and wrangler's environment (its HOME holds the login). */
export async function credentials(env: Environment = process.env): Promise<Credentials> {
  const fromEnv = env.CLOUDFLARE_API_TOKEN;
  if (fromEnv) return { token: fromEnv, source: "CLOUDFLARE_API_TOKEN" };
  let output: string;
  try {
    output = await wrangler(["auth", "token", "--json"], { env });
  } catch (error) {
    if (error instanceof WranglerFailed && /not logged in/i.test(error.output)) {
      throw new NotLoggedIn(
        "not logged in to Cloudflare: run `npx wrangler login` (a browser sign-in), or export CLOUDFLARE_API_TOKEN (a token with " +
          "the account permissions Workers Scripts: Edit, Workers KV Storage: Edit, Workers R2 Storage: Edit and Queues: Edit) and CLOUDFLARE_ACCOUNT_ID",
      );
    }
    throw error;
  }
  const parsed = JSON.parse(output.slice(output.indexOf("{"))) as { type: string; token?: string };
  if (!parsed.token)
    throw new NotLoggedIn(
      "wrangler is logged in with CLOUDFLARE_API_KEY + CLOUDFLARE_EMAIL (a global API key), which this script does not use: set CLOUDFLARE_API_TOKEN instead",
    );
  return { token: parsed.token, source: "wrangler login" };
}

/** The API client for the deployment's account (`env`: CLOUDFLARE_ACCOUNT_ID, CLOUDFLARE_API_BASE_URL). */
export async function connect(credential: Credentials, env: Environment = process.env): Promise<CloudflareApi> {
  const baseUrl = env.CLOUDFLARE_API_BASE_URL || DEFAULT_API_BASE_URL;
  const accountId = env.CLOUDFLARE_ACCOUNT_ID;
  if (accountId) {
    const api = new CloudflareApi(credential.token, accountId, baseUrl);
    if (credential.source === "CLOUDFLARE_API_TOKEN") await verifyToken(api);
    return api;
  }
  const probe = new CloudflareApi(credential.token, "", baseUrl);
  const accounts = await explainRefusal(credential.source, () =>
    probe.pages<{ id: string; name: string }>("/accounts", {
      permission: "Account Settings: Read",
      action: "find the account to deploy to",
    }),
  );
  const [only, ...others] = accounts;
  if (only && others.length === 0) return new CloudflareApi(credential.token, only.id, baseUrl);
  const listed = accounts.map((account) => `${account.id} (${account.name})`).join(", ") || "none";
  throw new NotLoggedIn(`set CLOUDFLARE_ACCOUNT_ID to the account to deploy to; this credential sees ${listed}`);
}

/** A revoked, expired or mistyped API token fails here, before anything else is tried. */
async function verifyToken(api: CloudflareApi): Promise<void> {
  const { status } = await explainRefusal("CLOUDFLARE_API_TOKEN", () =>
    api.call<{ status: string }>("/user/tokens/verify", { permission: "(any)", action: "verify the API token" }),
  );
  if (status !== "active")
    throw new NotLoggedIn(
      `CLOUDFLARE_API_TOKEN is ${status}, not active: make a new token (dashboard: My Profile → API Tokens)`,
    );
}

/** A credential the API refuses outright (401, or 400 for a malformed one) becomes what to do about it. */
async function explainRefusal<T>(source: Credentials["source"], call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 400)) {
      const fix =
        source === "CLOUDFLARE_API_TOKEN"
          ? "check CLOUDFLARE_API_TOKEN (dashboard: My Profile → API Tokens)"
          : "run `npx wrangler login` again";
      throw new NotLoggedIn(
        `Cloudflare refused the ${source === "CLOUDFLARE_API_TOKEN" ? "API token" : "login"} (${error.message}): ${fix}`,
      );
    }
    throw error;
  }
}
