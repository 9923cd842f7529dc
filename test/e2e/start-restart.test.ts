/**
 * `npm start` stopped and started again over the same state, as a developer does between sessions:
 * a release published in between stays current (the screen says which release each deployment
 * serves, and whether it is the sample), and the previous start's demo keys are revoked, which the
 * screen says too. Own ports and own --persist-to state.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCatalog } from "../../src/node/catalog/build/build";
import { seedDemoAccounts } from "../../src/node/operator/demo";
import { localOperator } from "../../src/node/operator/local-operator";
import { OperatorClient } from "../../src/node/operator/operator-client";
import { freePort } from "../../src/node/local/wrangler-dev";
import { expectDefined } from "../../src/common/expect";
import { npmStart, printedValue, type NpmStart } from "./support/npm-start";
import { SAMPLE_PROFILES } from "./support/catalog-state";
import { runScript } from "./support/scripts";

let dir: string;
let first: NpmStart;
let second: NpmStart;
let firstScreen: string;
let ownReleaseId: string;

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

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "npm-start-restart-"));
  const persistTo = path.join(dir, "state");
  const args = [
    "--port",
    String(await freePort()),
    "--sandbox-port",
    String(await freePort()),
    "--oauth-port",
    String(await freePort()),
    "--persist-to",
    persistTo,
  ];
  first = await npmStart(args);
  firstScreen = first.welcome();
  expect(await first.interrupt()).toBe(0);

  // Between the two starts, the developer publishes their own catalog (one profile) to production.
  const own = await buildCatalog({
    input: path.join(SAMPLE_PROFILES, "contoso-ledger-cloud--invoicing.json"),
    outDir: path.join(dir, "dist"),
  });
  const published = await runScript("catalog-publish.ts", ["--release", own.releaseDir, "--persist-to", persistTo]);
  expect(published.code, published.stderr).toBe(0);
  ownReleaseId = own.manifest.release_id;

  second = await npmStart(args);
  // Two starts and a publish: on a loaded 2-core CI runner this took over the project's 180 s.
}, 300_000);

afterAll(async () => {
  await first?.interrupt();
  await second?.interrupt();
  rmSync(dir, { recursive: true, force: true });
});

describe("npm start, started again over the same state", () => {
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
