/**
 * `npm start` as a newcomer meets it: one short screen, and every command and URL on it works as
 * pasted — each printed curl runs in bash, the npm commands run, the dashboard takes the printed
 * credentials, and the OAuth link leads, through sign-in and Allow, to the demo app printing calls
 * that work too (approving admin from the terminal, then a refresh that carries it), here with a
 * demo app whose client id starts with "-". Own ports and own --persist-to state, so it never
 * meets a developer's running `npm start`.
 *
 * Then `npm start` stopped and started again over the same state, as a developer does between
 * sessions: a release published in between stays current (the screen says which release each
 * deployment serves, and whether it is the sample), and the previous start's demo keys are
 * revoked, which the screen says too.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCatalog } from "../../src/node/catalog/build/build";
import { seedDemoAccounts } from "../../src/node/operator/demo";
import { localOperator } from "../../src/node/operator/local-operator";
import { OperatorClient } from "../../src/node/operator/operator-client";
import { FormBrowser, formField, signInAndAllow } from "./oauth-fixture";
import { freePort } from "../../src/node/local/wrangler-dev";
import { REPO_ROOT } from "./support/wrangler-dev";
import { DEMO_CLIENT_NAME, demoRedirectUri } from "../../src/node/oauth/demo";
import { registerClientStartingWithDash } from "./support/dash-client";
import { expectDefined } from "../../src/common/expect";
import { bash, npmStart, printedCommands, printedValue, type NpmStart, type Shell } from "./support/npm-start";
import { SAMPLE_PROFILES } from "./support/catalog-state";
import { runScript } from "./support/scripts";

const MAX_WELCOME_LINES = 30;

let dir: string;
/** npm start's options: the same ports and state for both starts. */
let args: string[];
let start: NpmStart;
let demoClientId: string;

/** A printed curl succeeded: exit 0, or 23 when `| head` stopped reading early (never 22, an HTTP error). */
function expectCurlSucceeded(line: string, run: Shell) {
  expect(run.curls, `${line}\n${run.stderr}`).toHaveLength(1);
  expect(run.curls[0] === 0 || (run.curls[0] === 23 && line.includes("| head")), `${line}\n${run.stderr}`).toBe(true);
}

/** Every option of a printed npm command is `--name=value`, which parses whatever the value starts with. */
function expectOptionsWithEquals(line: string) {
  const [, options = ""] = line.split(" -- ");
  const names = options.split(" ").filter((word) => word.startsWith("--"));
  expect(names.length, line).toBeGreaterThan(0);
  for (const option of names) expect(option, line).toMatch(/^--[a-z-]+=\S+$/);
}

/** True once nothing answers at the URL (servers may still be shutting down when npm start's own process ends). */
async function stopsAnswering(url: string, attempts = 60): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    const answered = await fetch(url).then(
      () => true,
      () => false,
    );
    if (!answered) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "npm-start-"));
  const [port, sandboxPort, oauthPort] = [await freePort(), await freePort(), await freePort()];
  const persistTo = path.join(dir, "state");
  // The demo app as registered by an earlier start, under an id that starts with "-": every
  // printed command must still take it (npm start reuses the demo app it finds).
  demoClientId = await registerClientStartingWithDash(persistTo, {
    clientName: DEMO_CLIENT_NAME,
    redirectUris: [demoRedirectUri(oauthPort)],
  });
  args = [
    "--port",
    String(port),
    "--sandbox-port",
    String(sandboxPort),
    "--oauth-port",
    String(oauthPort),
    "--persist-to",
    persistTo,
  ];
  start = await npmStart(args);
});

afterAll(async () => {
  await start?.interrupt();
  rmSync(dir, { recursive: true, force: true });
});

const welcome = () => start.welcome();
const output = () => start.output();

/** The e-mail and password printed for the customer or the operator account. */
function printedCredentials(account: "customer" | "operator") {
  const pattern = new RegExp(`${account} {2}(\\S+) \\/ (\\S+)`);
  return {
    email: printedValue(welcome(), pattern, `the ${account}'s e-mail`),
    password: printedValue(welcome(), pattern, `the ${account}'s password`, 2),
  };
}

/** A printed demo key, live or test, and the base URL its printed curl calls. */
function printedKey(mode: "live" | "test") {
  const pattern = new RegExp(`-H "Authorization: Bearer (sk_${mode}_\\w+)" (http://localhost:\\d+)/v1/`);
  return {
    secret: printedValue(welcome(), pattern, `the ${mode} key`),
    baseUrl: printedValue(welcome(), pattern, `the base URL of the ${mode} key`, 2),
  };
}

describe("npm start", () => {
  it("prints one short screen: servers, the demo keys' calls, dashboard credentials, the OAuth link; none of wrangler's start-up output", () => {
    const screen = welcome();
    expect(screen.split("\n").length).toBeLessThanOrEqual(MAX_WELCOME_LINES);
    expect(screen).toMatch(/^ {2}production {2}http:\/\/localhost:\d+ {2}\(live keys\)$/m);
    expect(screen).toMatch(/^Dashboard: http:\/\/localhost:\d+\/dashboard/m);
    expect(screen).toMatch(/^ {2}customer {2}demo@example\.com \/ demo-cheese-password/m);
    expect(screen).toMatch(/^ {2}operator {2}operator@example\.com \/ demo-operator-password/m);
    expect(output()).not.toContain("Your Worker has access to the following bindings");
    expect(output()).not.toContain("/operator/v1/");
  });

  it("every printed curl works as pasted", async () => {
    const lines = printedCommands(welcome(), "curl");
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of lines) expectCurlSucceeded(line, await bash(line));
  });

  it("every printed npm command works (catalog:pull writing to a temporary file instead of dist/catalog.json)", async () => {
    const lines = [
      // The webhook receiver runs until Ctrl-C: its own test below.
      ...printedCommands(welcome(), "npm").filter((line) => !line.includes("webhooks:receive")),
      printedValue(welcome(), /npm run operator -- list --account=\S+(?: --\S+=\d+)*/, "the operator list command", 0),
    ];
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expectOptionsWithEquals(line);
      const run = await bash(line.replace("--out=dist/catalog.json", `--out=${path.join(dir, "catalog.json")}`));
      expect(run.code, `${line}\n${run.stderr}`).toBe(0);
    }
  });

  it("the printed webhook receiver listens and prints each delivery (on a free port, not the printed one)", async () => {
    const line = expectDefined(
      printedCommands(welcome(), "npm").find((command) => command.includes("webhooks:receive")),
      "the printed webhook receiver command",
    );
    const receiverPort = await freePort();
    const receiver = spawn("bash", ["-c", line.replace(/--port=\d+/, `--port=${receiverPort}`)], {
      cwd: REPO_ROOT,
      detached: true,
    });
    let output = "";
    receiver.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      await expect.poll(() => output, { timeout: 30_000 }).toContain("listening on");
      const body = JSON.stringify({ type: "webhook.test", data: { release_id: "sha256:x", changes: null } });
      const answer = await fetch(`http://127.0.0.1:${receiverPort}/`, {
        method: "POST",
        headers: { "webhook-id": "msg_printed", "webhook-timestamp": String(Math.floor(Date.now() / 1000)) },
        body,
      });
      expect(answer.status).toBe(200);
      await expect.poll(() => output).toContain("msg_printed webhook.test sha256:x");
    } finally {
      process.kill(-expectDefined(receiver.pid, "the receiver's pid"), "SIGINT");
    }
  });

  it("the dashboard takes the printed customer and operator credentials", async () => {
    const dashboard = printedValue(welcome(), /^Dashboard: (\S+)/m, "the dashboard URL");
    const accounts = [
      { credentials: printedCredentials("customer"), page: "/dashboard/keys", heading: "<h1>API keys" },
      { credentials: printedCredentials("operator"), page: "/dashboard/operator", heading: "<h1>Operator" },
    ];
    for (const { credentials, page, heading } of accounts) {
      const browser = new FormBrowser(new URL(dashboard).origin);
      const signIn = await (await browser.get(dashboard)).text();
      const signedIn = await browser.post("/login", {
        csrf_token: formField(signIn, "csrf_token"),
        continue: formField(signIn, "continue"),
        email: credentials.email,
        password: credentials.password,
      });
      expect(signedIn.status, credentials.email).toBe(303);
      const shown = await browser.get(page);
      expect(shown.status, page).toBe(200);
      expect(await shown.text()).toContain(heading);
    }
  });

  it("the OAuth link: sign in as the printed customer, Allow; the demo app's printed calls work, admin approved from the terminal", async () => {
    const authorizeUrl = printedValue(
      welcome(),
      /^ {2}(http:\/\/localhost:\d+\/oauth\/authorize\?\S+)$/m,
      "the OAuth link",
    );
    expect(new URL(authorizeUrl).searchParams.get("client_id")).toBe(demoClientId);
    const callback = await signInAndAllow(authorizeUrl, printedCredentials("customer"), "Readiness Demo App");
    const landed = await fetch(callback);
    expect(await landed.text()).toContain("Signed in: Readiness Demo App now holds an access token for read:catalog.");

    const demo = (await start.waitForOutput(/\[oauth demo\][^\n]*\n(?: {2}\S[^\n]*\n)+/))[0];
    expect(demo).toContain("(admin waits for an operator)");
    const lines = demo
      .split("\n")
      .filter((line) => /^ {2}(curl|npm) /.test(line))
      .map((line) => line.trim());
    expect(lines.map((line) => line.split(" ")[0])).toEqual(["curl", "curl", "npm", "curl", "curl"]);
    for (const line of lines) {
      const run = await bash(line);
      if (line.startsWith("npm")) {
        expectOptionsWithEquals(line);
        expect(run.code, run.stderr).toBe(0);
        continue;
      }
      expectCurlSucceeded(line, run);
      if (line.includes("grant_type=refresh_token"))
        expect((JSON.parse(run.stdout) as { scope: string }).scope.split(" ").sort()).toEqual([
          "admin",
          "read:catalog",
        ]);
      if (line.includes("/oauth/revoke")) expect(run.stdout.trim()).toBe("200");
    }
  });

  it("the printed order is a sandbox test order that production never lists, and the other way round", async () => {
    const [live, test] = [printedKey("live"), printedKey("test")];
    const api = (key: ReturnType<typeof printedKey>, path: string, init: RequestInit = {}) =>
      fetch(`${key.baseUrl}${path}`, { ...init, headers: { Authorization: `Bearer ${key.secret}`, ...init.headers } });
    const printed = expectDefined(
      printedCommands(welcome(), "curl").find((line) => line.includes("/v2/orders")),
      "the printed curl that creates an order",
    );
    const run = await bash(printed);
    expectCurlSucceeded(printed, run);
    const sandboxOrder = JSON.parse(run.stdout) as { id: string; livemode: boolean };
    expect(sandboxOrder.livemode).toBe(false);
    const created = await api(live, "/v2/orders", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        items: [{ cheese_id: "chs_feta", quantity: 1 }],
        shipping_address: { line1: "1 Live Street", city: "Lyon", postal_code: "69002", country: "FR" },
      }),
    });
    const liveOrder = (await created.json()) as { id: string; livemode: boolean };
    expect([created.status, liveOrder.livemode]).toEqual([201, true]);
    const ids = async (key: ReturnType<typeof printedKey>) =>
      ((await (await api(key, "/v2/orders?limit=100")).json()) as { data: { id: string }[] }).data.map((o) => o.id);
    expect(await ids(live)).toContain(liveOrder.id);
    expect(await ids(live)).not.toContain(sandboxOrder.id);
    expect(await ids(test)).toContain(sandboxOrder.id);
    expect(await ids(test)).not.toContain(liveOrder.id);
    expect((await api(live, `/v2/orders/${sandboxOrder.id}`)).status).toBe(404);
    expect((await api(test, `/v2/orders/${liveOrder.id}`)).status).toBe(404);
  });

  it("Ctrl-C stops both servers and the demo app's callback", async () => {
    const servers = [...welcome().matchAll(/^ {2}(?:production|sandbox) +(http:\/\/localhost:\d+)/gm)].map((m) =>
      expectDefined(m[1], "a server's URL"),
    );
    const callback = printedValue(welcome(), /\(callback (http:\/\/127\.0\.0\.1:\d+)\/callback\)/, "the demo callback");
    expect(servers).toHaveLength(2);
    expect(await start.interrupt()).toBe(0);
    for (const url of [...servers, callback]) expect(await stopsAnswering(url), url).toBe(true);
  });
});

const secretsOn = (screen: string) => ({
  live: printedValue(screen, /Bearer (sk_live_\w+)/, "the live demo key"),
  test: printedValue(screen, /Bearer (sk_test_\w+)/, "the test demo key"),
});
const baseUrls = (screen: string) => ({
  production: printedValue(screen, /^ {2}production +(http:\/\/localhost:\d+)/m, "the production URL"),
  sandbox: printedValue(screen, /^ {2}sandbox +(http:\/\/localhost:\d+)/m, "the sandbox URL"),
});

async function call(
  baseUrl: string,
  path: string,
  secret: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(new URL(path, baseUrl), { headers: { Authorization: `Bearer ${secret}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("npm start, started again over the same state", () => {
  let second: NpmStart;
  let firstScreen: string;
  let ownReleaseId: string;

  beforeAll(async () => {
    // The first start is the one above ("Ctrl-C stops both servers…" stops it; alone, this does).
    firstScreen = start.welcome();
    expect(await start.interrupt()).toBe(0);

    // Between the two starts, the developer publishes their own catalog (one profile) to production.
    const persistTo = expectDefined(args.at(-1), "the state npm start serves");
    const own = await buildCatalog({
      input: path.join(SAMPLE_PROFILES, "contoso-ledger-cloud--invoicing.json"),
      outDir: path.join(dir, "dist"),
    });
    const published = await runScript("catalog-publish.ts", ["--release", own.releaseDir, "--persist-to", persistTo]);
    expect(published.code, published.stderr).toBe(0);
    ownReleaseId = own.manifest.release_id;

    second = await npmStart(args);
    // A start and a publish: on a loaded 2-core CI runner two starts and a publish took over 180 s.
  }, 300_000);

  afterAll(async () => {
    await second?.interrupt();
  });

  it("the first start publishes the sample on both deployments and says so", () => {
    for (const deployment of ["production", "sandbox"]) {
      expect(firstScreen).toMatch(
        new RegExp(
          `^ {2}(release)? +${deployment}: +sha256:[0-9a-f]{64}, 26 profiles, published \\S+Z, the sample catalog \\(published by this start\\)$`,
          "m",
        ),
      );
    }
  });

  it("keeps serving the release published since, and says which release each deployment serves", async () => {
    const screen = second.welcome();
    const secrets = secretsOn(screen);
    const urls = baseUrls(screen);
    const production = await call(urls.production, "/v1/releases/current", secrets.live);
    const sandbox = await call(urls.sandbox, "/v1/releases/current", secrets.test);
    expect([production.status, production.body.release_id]).toEqual([200, ownReleaseId]);
    const sampleId = printedValue(
      firstScreen,
      /^ {2}release +production: +(sha256:[0-9a-f]{64})/m,
      "the sample's release",
    );
    expect([sandbox.status, sandbox.body.release_id]).toEqual([200, sampleId]);

    const lines = screen.split("\n");
    expect(lines).toContain(
      `  release     production: ${ownReleaseId}, 1 profile, published ${String(production.body.published_at)}, not the sample (kept; npm start -- --publish-sample serves the sample instead)`,
    );
    expect(lines).toContain(
      `              sandbox:    ${sampleId}, 26 profiles, published ${String(sandbox.body.published_at)}, the sample catalog`,
    );
  });

  it("revokes the previous start's demo keys and says so; the new ones work", async () => {
    const before = secretsOn(firstScreen);
    const after = secretsOn(second.welcome());
    const urls = baseUrls(second.welcome());
    expect(second.welcome().split("\n")).toContain(
      `  the previous start's demo keys sk_live_…${before.live.slice(-4)} and sk_test_…${before.test.slice(-4)} are revoked: they get 401 revoked_api_key`,
    );
    for (const [url, secret] of [
      [urls.production, before.live],
      [urls.sandbox, before.test],
    ] as const) {
      const refused = await call(url, "/v2/cheeses", secret);
      expect([refused.status, refused.body.code]).toEqual([401, "revoked_api_key"]);
    }
    expect((await call(urls.production, "/v2/cheeses", after.live)).status).toBe(200);
    expect((await call(urls.sandbox, "/v2/cheeses", after.test)).status).toBe(200);
  });

  it("the limit of 3 active keys: the previous demo key makes room; the developer's own keys filling it make npm start say which to revoke", async () => {
    const production = baseUrls(second.welcome()).production;
    const servers = [{ deployment: "production" as const, baseUrl: production }];
    const accountId = printedValue(second.welcome(), /demo customer \S+ \((acct_\w+)\)/, "the demo account");
    const { operatorSecret } = localOperator();
    const operator = new OperatorClient(production, operatorSecret);
    const active = async () =>
      (await operator.listKeys(accountId))
        .filter((key) => key.status === "active")
        .map((key) => key.name)
        .sort();
    for (const name of ["mine 1", "mine 2"]) await operator.createKey(accountId, { mode: "live", name });
    expect(await active()).toEqual(["mine 1", "mine 2", "npm start demo"]);

    const renewed = await seedDemoAccounts(servers, operatorSecret);
    expect(renewed.revoked.map((key) => key.last4)).toEqual([secretsOn(second.welcome()).live.slice(-4)]);
    const renewedKey = expectDefined(renewed.keys[0], "the renewed demo key");
    expect((await call(production, "/v2/cheeses", renewedKey.secret)).status).toBe(200);
    expect(await active()).toEqual(["mine 1", "mine 2", "npm start demo"]);

    const demoKey = expectDefined(
      (await operator.listKeys(accountId)).find((key) => key.status === "active" && key.name === "npm start demo"),
      "the active demo key",
    );
    await operator.revokeKey(demoKey.id);
    await operator.createKey(accountId, { mode: "live", name: "mine 3" });
    await expect(seedDemoAccounts(servers, operatorSecret)).rejects.toThrow(
      /no demo key could be made: demo@example\.com has live keys of its own on production up to the limit/,
    );
    expect(await active()).toEqual(["mine 1", "mine 2", "mine 3"]);
  });

  it("the demo operator is on the sandbox too, one account under the production id", async () => {
    const urls = baseUrls(second.welcome());
    const { operatorSecret } = localOperator();
    const operatorOn = async (baseUrl: string) =>
      (await new OperatorClient(baseUrl, operatorSecret).listAccounts()).find(
        (account) => account.email === "operator@example.com",
      );
    const [production, sandbox] = await Promise.all([operatorOn(urls.production), operatorOn(urls.sandbox)]);
    expect(production?.roles).toEqual(["operator"]);
    expect([sandbox?.id, sandbox?.roles]).toEqual([production?.id, ["operator"]]);
  });
});
