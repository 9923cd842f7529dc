/**
 * Dynamic client registration (RFC 7591) stores only bounded metadata: 200 characters for a name,
 * 2,000 for a URI, 10 entries in a list, 10 language-tagged fields. Past a bound it is 400
 * `invalid_client_metadata` (RFC 7591 §3.2.2) naming the field, and nothing is stored.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_CLIENT_NAME_CHARS, MAX_URI_CHARS } from "../../src/worker/auth/oauth/registration-bounds";
import * as oauth from "./oauth-support";

const PUBLIC_CLIENT = {
  client_name: "Agent Host",
  redirect_uris: [oauth.REDIRECT_URI],
  token_endpoint_auth_method: "none",
};

/** An https URI of exactly `length` characters. */
const uriOf = (length: number) => {
  const base = "https://app.example/";
  return base + "a".repeat(length - base.length);
};

const storedClients = async () => (await env.OAUTH_KV.list({ prefix: "client:" })).keys.length;

async function expectRefused(metadata: Record<string, unknown>, problems: (string | RegExp)[]) {
  const before = await storedClients();
  const res = await oauth.registerDynamically({ ...PUBLIC_CLIENT, ...metadata });
  expect(res.status).toBe(400);
  const body = await res.json<{ error: string; error_description: string }>();
  expect(body.error).toBe("invalid_client_metadata");
  expect(body.error_description.split("; ")).toEqual(
    problems.map((problem) => (typeof problem === "string" ? problem : expect.stringMatching(problem))),
  );
  expect(await storedClients()).toBe(before);
}

describe("bounded strings", () => {
  it("a 60,000-character client_name is refused, naming the field", async () => {
    await expectRefused({ client_name: "A".repeat(60_000) }, [/^client_name: at most 200 characters \(60000 given\)$/]);
  });

  it("a name of exactly 200 characters (multi-byte ones count once) and URIs of 2,000 are registered", async () => {
    const res = await oauth.registerDynamically({
      ...PUBLIC_CLIENT,
      client_name: "€".repeat(MAX_CLIENT_NAME_CHARS),
      client_uri: uriOf(MAX_URI_CHARS),
      redirect_uris: [uriOf(MAX_URI_CHARS)],
    });
    expect(res.status).toBe(201);
  });

  it.each(["client_uri", "logo_uri", "policy_uri", "tos_uri", "jwks_uri"])(
    "%s over 2,000 characters",
    async (field) => {
      await expectRefused({ [field]: uriOf(MAX_URI_CHARS + 1) }, [`${field}: at most 2000 characters (2001 given)`]);
    },
  );

  it("a redirect URI over 2,000 characters, by its place", async () => {
    await expectRefused({ redirect_uris: [oauth.REDIRECT_URI, uriOf(MAX_URI_CHARS + 1)] }, [
      "redirect_uris[1]: at most 2000 characters (2001 given)",
    ]);
  });

  it("contacts: at most 10, each at most 254 characters (RFC 5321)", async () => {
    const contacts = Array.from({ length: 11 }, (_, index) => `dev${index}@app.example`);
    await expectRefused({ contacts }, ["at most 10 contacts"]);
    await expectRefused({ contacts: [`${"a".repeat(243)}@app.example`] }, [
      "contacts[0]: at most 254 characters (255 given)",
    ]);
  });

  it("grant_types and response_types: at most 10 entries", async () => {
    await expectRefused({ grant_types: Array(11).fill("authorization_code"), response_types: Array(11).fill("code") }, [
      "at most 10 grant_types",
      "at most 10 response_types",
    ]);
  });
});

describe("language-tagged fields (client_name#fr, RFC 7591 §2.2)", () => {
  it("each is bounded like its field", async () => {
    await expectRefused({ "client_name#fr": "B".repeat(201), "logo_uri#fr": uriOf(2001) }, [
      "client_name#fr: at most 200 characters (201 given)",
      "logo_uri#fr: at most 2000 characters (2001 given)",
    ]);
  });

  it("at most 10 of them, with tags of at most 35 characters", async () => {
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, index) => [`client_name#x-${index}`, "Hôte"]));
    await expectRefused(many, [/^at most 10 language-tagged fields/]);
    await expectRefused({ [`client_name#${"x".repeat(36)}`]: "Hôte" }, [
      "client_name#…: a language tag has at most 35 characters",
    ]);
  });
});

it("every problem of the metadata in one refusal, the redirect URI rules first", async () => {
  await expectRefused({ client_name: "A".repeat(201), redirect_uris: ["/relative"], tos_uri: uriOf(2001) }, [
    "redirect_uris[0]: the redirect URI is not an absolute URL",
    "client_name: at most 200 characters (201 given)",
    "tos_uri: at most 2000 characters (2001 given)",
  ]);
});
