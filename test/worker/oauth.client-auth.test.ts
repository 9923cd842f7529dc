/**
 * Client authentication at /oauth/token and /oauth/revoke (RFC 6749 §2.3.1, RFC 7009 §2.1): every
 * method the metadata advertises works for a client registered the way `npm run clients` does it,
 * on the code exchange, the refresh and the revocation.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import * as oauth from "./oauth-support";

type Credentials = { clientId: string; clientSecret?: string };

/** How a method carries the client's credentials: form fields and headers. */
type Authentication = { fields: Record<string, string>; headers: Record<string, string> };

const basic = ({ clientId, clientSecret }: Credentials): Authentication => ({
  fields: {},
  headers: { Authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}` },
});

/** Each method the server supports, by its metadata name. */
const AUTHENTICATE: Record<string, (client: Credentials) => Authentication> = {
  none: ({ clientId }) => ({ fields: { client_id: clientId }, headers: {} }),
  client_secret_basic: basic,
  client_secret_post: ({ clientId, clientSecret }) => ({
    fields: { client_id: clientId, client_secret: expectDefined(clientSecret, "the client's secret") },
    headers: {},
  }),
};

async function advertisedMethods(): Promise<{ token: string[]; revocation: string[] }> {
  const metadata = await (await exports.default.fetch(`${oauth.ORIGIN}/.well-known/oauth-authorization-server`)).json<
    Record<string, string[]>
  >();
  return {
    token: expectDefined(metadata.token_endpoint_auth_methods_supported, "token_endpoint_auth_methods_supported"),
    revocation: expectDefined(
      metadata.revocation_endpoint_auth_methods_supported,
      "revocation_endpoint_auth_methods_supported",
    ),
  };
}

function revoke(token: string, auth: Authentication): Promise<Response> {
  return exports.default.fetch(`${oauth.ORIGIN}/oauth/revoke`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...auth.headers },
    body: new URLSearchParams({ token, ...auth.fields }),
  });
}

it("the metadata advertises exactly the methods tested here, at both endpoints", async () => {
  const methods = await advertisedMethods();
  expect(methods.token.sort()).toEqual(Object.keys(AUTHENTICATE).sort());
  expect(methods.revocation.sort()).toEqual(methods.token.sort());
});

describe("each advertised method: code exchange, refresh and revocation", () => {
  for (const [method, authenticate] of Object.entries(AUTHENTICATE)) {
    it(method, async () => {
      const account = await oauth.createCustomer();
      const client = await oauth.registerClient({ public: method === "none" });
      const auth = authenticate(client);
      const { verifier, challenge } = await oauth.pkcePair();
      const code = await oauth.authorizationCode({ clientId: client.clientId, challenge, account });

      const exchanged = await oauth.tokenRequest(
        {
          grant_type: "authorization_code",
          code,
          redirect_uri: oauth.REDIRECT_URI,
          code_verifier: verifier,
          ...auth.fields,
        },
        auth.headers,
      );
      expect(exchanged.status, await exchanged.clone().text()).toBe(200);
      const tokens = await exchanged.json<oauth.TokenBody>();
      const refreshed = await oauth.tokenRequest(
        { grant_type: "refresh_token", refresh_token: tokens.refresh_token, ...auth.fields },
        auth.headers,
      );
      expect(refreshed.status, await refreshed.clone().text()).toBe(200);
      const latest = await refreshed.json<oauth.TokenBody>();

      expect((await revoke(latest.refresh_token, auth)).status).toBe(200);
      const afterRevoke = await oauth.tokenRequest(
        { grant_type: "refresh_token", refresh_token: latest.refresh_token, ...auth.fields },
        auth.headers,
      );
      expect((await afterRevoke.json<oauth.TokenBody>()).error).toBe("invalid_grant");
    });
  }
});

describe("refused client authentication", () => {
  it("a wrong client_secret in the form is 401 invalid_client", async () => {
    const client = await oauth.registerClient({ public: false });
    const res = await oauth.tokenRequest({
      grant_type: "refresh_token",
      refresh_token: "ort_bm9wZTpub3BlOm5vcGU",
      client_id: client.clientId,
      client_secret: "wrong",
    });
    expect([res.status, (await res.json<oauth.TokenBody>()).error]).toEqual([401, "invalid_client"]);
  });

  it("a confidential client cannot leave its secret out", async () => {
    const client = await oauth.registerClient({ public: false });
    const res = await oauth.refreshRequest(client.clientId, "ort_bm9wZTpub3BlOm5vcGU");
    expect([res.status, (await res.json<oauth.TokenBody>()).error]).toEqual([401, "invalid_client"]);
  });

  it("Basic and client_secret together are invalid_request (RFC 6749 §2.3: one method per request)", async () => {
    const client = await oauth.registerConfidentialClient();
    const auth = basic(client);
    const res = await oauth.tokenRequest(
      { grant_type: "refresh_token", refresh_token: "ort_bm9wZTpub3BlOm5vcGU", client_secret: client.clientSecret },
      auth.headers,
    );
    expect([res.status, (await res.json<oauth.TokenBody>()).error]).toEqual([400, "invalid_request"]);
  });
});
