/**
 * `npm run clients`: the operator CLI for OAuth clients, over this file's own local state. The
 * commands run in process (`clients()`, the function the door calls); one test runs the door
 * (scripts/clients.ts) as a real process for its exit codes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { openDeploymentStorage } from "../../src/node/local/deployment-storage";
import { clients as clientsCommand } from "../../src/node/oauth/clients-command";
import { DEMO_CLIENT_NAME, seedDemoClient } from "../../src/node/oauth/demo";
import { loadOAuthProvider } from "../../src/node/oauth/library-in-node";
import { nextClientIdStartsWithDash, registerClientStartingWithDash } from "../e2e/support/dash-client";
import { runScript } from "../e2e/support/scripts";
import { runInProcess } from "./cli-in-process";

const state = mkdtempSync(path.join(tmpdir(), "clients-cli-"));
afterAll(() => rmSync(state, { recursive: true, force: true }));

/**
 * `npm run clients -- …` over this file's own local state. Each command that reaches the state opens
 * it with a workerd of its own (wrangler's platform proxy), a second or more on a loaded machine.
 */
const clients = (...args: string[]) => runInProcess(clientsCommand.run, [...args, "--persist-to", state]);

interface ListedClient {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  tokenEndpointAuthMethod: string;
  clientSecret?: string;
}

/** `create … --json`, which must succeed: the registered client. */
async function created(...args: string[]): Promise<ListedClient> {
  const run = await clients("create", ...args, "--json");
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as ListedClient;
}

const listed = async () => JSON.parse((await clients("list", "--json")).stdout) as ListedClient[];

describe("npm run clients", () => {
  it("creates a confidential client, shows its secret once, lists it without the secret, deletes it", async () => {
    const client = await created(
      "--name",
      "Cheese Tracker",
      "--redirect-uri",
      "https://app.example/cb",
      "--redirect-uri",
      "http://127.0.0.1:8400/cb",
    );
    const secret = expectDefined(client.clientSecret, "a confidential client's secret");
    expect(secret).toMatch(/^\S{32}$/);
    expect(client.redirectUris).toEqual(["https://app.example/cb", "http://127.0.0.1:8400/cb"]);

    const all = await listed();
    expect(all.find((item) => item.clientId === client.clientId)).toMatchObject({
      clientName: "Cheese Tracker",
      tokenEndpointAuthMethod: "client_secret_basic",
    });
    expect(JSON.stringify(all)).not.toContain(secret);

    const deleted = await clients("delete", client.clientId);
    expect([deleted.code, deleted.stderr]).toEqual([
      0,
      expect.stringMatching(
        new RegExp(`^deleted client ${client.clientId} and revoked its grants on local production \\(.+\\)\\n$`),
      ),
    ]);
    expect((await listed()).some((item) => item.clientId === client.clientId)).toBe(false);
  }, 180_000);

  it("without --json: the secret once, the kind and each redirect URI; the list in lines an operator reads", async () => {
    const uris = ["--redirect-uri=https://plain.example/cb", "--redirect-uri=http://[::1]:9000/cb"];
    const run = await clients("create", "--name=  Plain Text App  ", ...uris);
    expect(run.code, run.stderr).toBe(0);
    const clientId = expectDefined(/^client_id: {5}(\S+)$/m.exec(run.stdout)?.[1], "the printed client_id");
    expect(run.stdout).toMatch(
      new RegExp(
        `^client_id: {5}${clientId}\\nclient_secret: \\S{32} {3}\\(shown once: store it now\\)\\n` +
          "kind: {10}confidential \\(client_secret_basic or client_secret_post\\)\\n" +
          "redirect_uri: {2}https://plain\\.example/cb\\nredirect_uri: {2}http://\\[::1\\]:9000/cb\\n$",
      ),
    );
    expect(run.stderr).toMatch(
      new RegExp(`^created client ${clientId} "Plain Text App" on local production \\(.+\\)\\n$`),
    );

    const list = await clients("list");
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(
      new RegExp(
        `^${clientId} {2}confidential {2}\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z {2}Plain Text App\\n {4}https://plain\\.example/cb\\n {4}http://\\[::1\\]:9000/cb$`,
        "m",
      ),
    );
    expect(list.stdout).not.toContain("client_secret");
    expect(list.stderr).toMatch(/^\d+ client\(s\) on local production \(.+\)\n$/);
  }, 180_000);

  it("creates a public client without a secret", async () => {
    const client = await created("--name", "CLI tool", "--redirect-uri", "http://localhost:7777/callback", "--public");
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
    });
  }

  it.each([
    [["frobnicate"], 'unknown command "frobnicate"'],
    [["create", "--redirect-uri", "https://a.example/cb"], "--name is required"],
    [["create", "--name", "   ", "--redirect-uri", "https://a.example/cb"], "--name is required"],
    [
      ["create", "--name", "x".repeat(101), "--redirect-uri", "https://a.example/cb"],
      "--name is 101 characters long; at most 100",
    ],
    [["create", "--name", "No URI"], "at least one --redirect-uri is required"],
    [["delete"], "delete takes exactly one client_id"],
    [["delete", "one", "two"], "delete takes exactly one client_id"],
    [["list", "--remote"], "--persist-to is for local state; it cannot be combined with --remote"],
  ])("clients %j exits 2 with the reason and the help, before opening any state", async (args, reason) => {
    const result = await clients(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`clients: ${reason}`);
    expect(result.stderr).toContain("Usage: npm run clients");
  });

  it("takes --name=value options; deletes a client whose id starts with - given after --", async () => {
    const client = await created("--name=Dash Tool", "--redirect-uri=http://localhost:7778/callback", "--public");
    expect(client).toMatchObject({ clientName: "Dash Tool", redirectUris: ["http://localhost:7778/callback"] });

    const clientId = await registerClientStartingWithDash(state, {
      clientName: "Dash App",
      redirectUris: ["http://localhost:7779/callback"],
    });
    const deleted = await runInProcess(clientsCommand.run, ["delete", "--persist-to", state, "--", clientId]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stderr).toContain(`deleted client ${clientId}`);
  }, 180_000);

  it("through the door, as a real process: exit code 1 for an unknown client and 2 for a missing command", async () => {
    const door = (...args: string[]) => runScript("clients.ts", [...args, "--persist-to", state]);
    const [unknown, missing] = await Promise.all([door("delete", "no-such-client"), door()]);
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      expect.stringContaining("clients: no client no-such-client on"),
    ]);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining("a command is required")]);
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
