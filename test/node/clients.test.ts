/** `npm run clients`: the operator CLI for OAuth clients, run as a real process against local state. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDeploymentStorage } from "../../src/node/local/deployment-storage";
import { loadOAuthProvider } from "../../src/node/oauth/library-in-node";
import { DEMO_CLIENT_NAME, seedDemoClient } from "../../src/node/oauth/demo";
import { nextClientIdStartsWithDash, registerClientStartingWithDash } from "../e2e/support/dash-client";
import { runScript } from "../e2e/support/scripts";

const state = mkdtempSync(path.join(tmpdir(), "clients-cli-"));
afterAll(() => rmSync(state, { recursive: true, force: true }));

/**
 * `npm run clients -- …` as a real process over this file's own local state. Each run starts Node,
 * tsx and a workerd: 14 s for the four of the first test on a quiet machine, over 60 s at a load
 * average of 12, hence the tests' 180 s.
 */
const clients = (...args: string[]) => runScript("clients.ts", [...args, "--persist-to", state]);

interface ListedClient {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  tokenEndpointAuthMethod: string;
  clientSecret?: string;
}

describe("npm run clients", () => {
  it("creates a confidential client, shows its secret once, lists it without the secret, deletes it", async () => {
    const created = await clients(
      "create",
      "--name",
      "Cheese Tracker",
      "--redirect-uri",
      "https://app.example/cb",
      "--redirect-uri",
      "http://127.0.0.1:8400/cb",
      "--json",
    );
    expect(created.code).toBe(0);
    const client = JSON.parse(created.stdout) as ListedClient;
    expect(client.clientSecret).toMatch(/^\S{32}$/);
    expect(client.redirectUris).toEqual(["https://app.example/cb", "http://127.0.0.1:8400/cb"]);
    expect(created.stderr).toContain(`created client ${client.clientId}`);

    const listed = JSON.parse((await clients("list", "--json")).stdout) as ListedClient[];
    const found = listed.find((item) => item.clientId === client.clientId);
    expect(found).toMatchObject({ clientName: "Cheese Tracker", tokenEndpointAuthMethod: "client_secret_basic" });
    expect(JSON.stringify(listed)).not.toContain(client.clientSecret!);

    expect((await clients("delete", client.clientId)).code).toBe(0);
    const after = JSON.parse((await clients("list", "--json")).stdout) as ListedClient[];
    expect(after.some((item) => item.clientId === client.clientId)).toBe(false);
  }, 180_000);

  it("creates a public client without a secret", async () => {
    const created = await clients(
      "create",
      "--name",
      "CLI tool",
      "--redirect-uri",
      "http://localhost:7777/callback",
      "--public",
      "--json",
    );
    expect(created.code).toBe(0);
    const client = JSON.parse(created.stdout) as ListedClient;
    expect(client.tokenEndpointAuthMethod).toBe("none");
    expect(client.clientSecret).toBeUndefined();
  }, 180_000);

  const refused: Record<string, string> = {
    "javascript:alert(1)": "javascript: scheme is not allowed",
    "data:text/html,hi": "data: scheme is not allowed",
    "http://app.example/cb": "plain http is only allowed on a loopback host",
    "https://app.example/cb#frag": "fragment",
    "https://user:pw@app.example/cb": "user credentials",
    "/relative/cb": "not an absolute URL",
  };
  for (const [uri, reason] of Object.entries(refused)) {
    it(`refuses the redirect URI ${uri} with exit code 2 and the reason`, async () => {
      const result = await clients("create", "--name", "Bad", "--redirect-uri", uri);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(reason);
    }, 180_000);
  }

  it("takes --name=value options; deletes a client whose id starts with - given after --", async () => {
    const created = await clients(
      "create",
      "--name=Dash Tool",
      "--redirect-uri=http://localhost:7778/callback",
      "--public",
      "--json",
    );
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      clientName: "Dash Tool",
      redirectUris: ["http://localhost:7778/callback"],
    });

    const clientId = await registerClientStartingWithDash(state, {
      clientName: "Dash App",
      redirectUris: ["http://localhost:7779/callback"],
    });
    const deleted = await runScript("clients.ts", ["delete", "--persist-to", state, "--", clientId]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stderr).toContain(`deleted client ${clientId}`);
  }, 180_000);

  it("fails with exit code 1 for an unknown client and 2 for a missing command", async () => {
    expect((await clients("delete", "no-such-client")).code).toBe(1);
    expect((await clients()).code).toBe(2);
  }, 180_000);
});

describe("client ids", () => {
  it("never start with -: npm start's demo app is registered again when the library draws one", async () => {
    const persistTo = mkdtempSync(path.join(tmpdir(), "client-ids-"));
    const opened = await openDeploymentStorage({ persistTo });
    const restore = nextClientIdStartsWithDash();
    try {
      const clientId = await seedDemoClient(opened.env, "http://127.0.0.1:18789/callback");
      expect(clientId).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{15}$/);
      const { registryApi } = await loadOAuthProvider();
      const registered = (await registryApi(opened.env as never).listClients()).items;
      expect(registered.map((client) => [client.clientId, client.clientName])).toEqual([[clientId, DEMO_CLIENT_NAME]]);
    } finally {
      restore();
      await opened.dispose();
      rmSync(persistTo, { recursive: true, force: true });
    }
  }, 180_000);
});
