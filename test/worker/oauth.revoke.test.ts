/**
 * /oauth/revoke (RFC 7009) for every audience a token can have (RFC 8707): the REST API (the
 * origin) and the MCP server (`<origin>/mcp`). The owner revoking either token ends the whole
 * grant (docs/oauth.md "Revocation"); another client's revocation is refused with 400
 * `unauthorized_client` (RFC 7009 §2.1, §2.2.1) and changes nothing.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bearer, freshIp } from "./auth-fixtures";
import * as oauth from "./oauth-support";
import { INITIALIZE, MCP_HEADERS } from "./support/mcp";

const AUDIENCES = [
  { name: "REST API", resource: undefined },
  { name: "MCP server", resource: `${oauth.ORIGIN}/mcp` },
] as const;

type Audience = (typeof AUDIENCES)[number];

/** What the token's own resource answers to it: the API's /v2/cheeses, or an MCP initialize. */
async function statusAtResource(audience: Audience, accessToken: string): Promise<number> {
  const headers = { ...bearer(accessToken), "CF-Connecting-IP": freshIp() };
  const request = audience.resource
    ? new Request(audience.resource, { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body: INITIALIZE })
    : new Request(`${oauth.ORIGIN}/v2/cheeses`, { headers });
  return (await exports.default.fetch(request)).status;
}

async function grantFor(audience: Audience) {
  const { clientId, tokens } = await oauth.consentedTokens({
    scope: "read:cheeses read:catalog",
    ...(audience.resource ? { resource: audience.resource } : {}),
  });
  expect(await statusAtResource(audience, tokens.access_token)).toBe(200);
  return { clientId, tokens };
}

const refreshFields = (audience: Audience): Record<string, string> =>
  audience.resource ? { resource: audience.resource } : {};

describe.each(AUDIENCES)("a token for the $name", (audience) => {
  for (const kind of ["access_token", "refresh_token"] as const) {
    it(`the owner revokes the ${kind}: the whole grant ends, access and refresh token alike`, async () => {
      const { clientId, tokens } = await grantFor(audience);
      const res = await oauth.revokeRequest(tokens[kind], { client_id: clientId });
      expect(res.status).toBe(200);
      expect(await statusAtResource(audience, tokens.access_token)).toBe(401);
      const refreshed = await oauth.refreshRequest(clientId, tokens.refresh_token, refreshFields(audience));
      expect([refreshed.status, (await refreshed.json<oauth.TokenBody>()).error]).toEqual([400, "invalid_grant"]);
    });

    it(`another client revokes the ${kind}: 400 unauthorized_client, and the grant keeps working`, async () => {
      const { clientId, tokens } = await grantFor(audience);
      const other = await oauth.registerClient();
      const res = await oauth.revokeRequest(tokens[kind], { client_id: other.clientId });
      expect(res.status).toBe(400);
      expect((await res.json<{ error: string }>()).error).toBe("unauthorized_client");
      expect(await statusAtResource(audience, tokens.access_token)).toBe(200);
      const refreshed = await oauth.refreshRequest(clientId, tokens.refresh_token, refreshFields(audience));
      expect(refreshed.status).toBe(200);
    });
  }
});
