/**
 * An MCP host's OAuth state kept in memory, as the SDK client's `OAuthClientProvider` needs it: the
 * client information (registered, or given), tokens and PKCE verifier. What its "browser" does at
 * the authorization URL is each test's own (`redirectToAuthorization`). Used by the worker tests
 * (mcp.oauth-hosts.test.ts) and the e2e test over wrangler dev (test/e2e/mcp.test.ts); imports
 * nothing of workerd, so it runs in both.
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";

export abstract class InMemoryHost implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  constructor(
    private readonly redirect: string,
    private readonly name: string,
  ) {}
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      scope: "read:catalog",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  abstract redirectToAuthorization(url: URL): Promise<void>;
}
