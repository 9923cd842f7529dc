/**
 * The deploy engine's talk with the Cloudflare account, in this process: who deploys (an API token,
 * or the OAuth token of `wrangler login` read through the real wrangler), which account, where the
 * deployment answers, lists of more than one page, and a smoke test of an origin that does not
 * answer. Cloudflare is a remote SaaS that cannot run here: the API is the local fake
 * (deploy-support/fake-cloudflare.ts), the one stand-in.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MissingPermission } from "../../src/node/deploy/cloudflare-api";
import { connect, credentials, NotLoggedIn } from "../../src/node/deploy/credentials";
import { readDeployment } from "../../src/node/deploy/deployments";
import { ensureKvNamespaces } from "../../src/node/deploy/resources";
import { smokeTest } from "../../src/node/deploy/smoke";
import { workersDevUrl } from "../../src/node/deploy/workers-dev";
import { ALL_PERMISSIONS } from "./deploy-support/fake-account";
import { FAKE_ACCOUNT_ID, FAKE_TOKEN, FakeCloudflare } from "./deploy-support/fake-cloudflare";
import { editedRepoConfig, REPO_CONFIG, tempDir } from "./deploy-support/fixtures";

let fake: FakeCloudflare;
beforeAll(async () => {
  fake = await FakeCloudflare.start();
});
afterAll(() => fake?.close());
beforeEach(() => {
  fake.calls.length = 0;
  fake.account.permissions.clear();
  for (const permission of ALL_PERMISSIONS) fake.account.permissions.add(permission);
});

/** A HOME where `wrangler login` left this OAuth token (wrangler's own file, read by wrangler itself). */
function loggedInHome(oauthToken: string): string {
  const home = tempDir("deploy-login-");
  mkdirSync(path.join(home, ".wrangler/config"), { recursive: true });
  writeFileSync(
    path.join(home, ".wrangler/config/default.toml"),
    `oauth_token = "${oauthToken}"\nexpiration_time = "2099-01-01T00:00:00.000Z"\nrefresh_token = "unused"\n`,
  );
  return home;
}

/** No CLOUDFLARE_API_TOKEN, no CLOUDFLARE_ACCOUNT_ID: what wrangler's login and the API's account list must give. */
const withoutToken = (home: string, env: Record<string, string> = {}) => ({
  CLOUDFLARE_API_BASE_URL: fake.baseUrl,
  CLOUDFLARE_API_TOKEN: "",
  CLOUDFLARE_ACCOUNT_ID: "",
  HOME: home,
  XDG_CONFIG_HOME: home,
  ...env,
});

describe("who deploys, to which account", () => {
  it("uses the token of `wrangler login`, and the only account it sees", async () => {
    const env = withoutToken(loggedInHome(FAKE_TOKEN));
    const credential = await credentials(env);
    expect(credential).toEqual({ token: FAKE_TOKEN, source: "wrangler login" });
    const api = await connect(credential, env);
    expect(api.accountId).toBe(FAKE_ACCOUNT_ID);
    expect(fake.calls).toEqual([{ method: "GET", path: "/accounts", status: 200 }]);
  }, 60_000);

  it("a login the API refuses: log in again", async () => {
    const env = withoutToken(loggedInHome("an-expired-login"));
    const credential = await credentials(env);
    await expect(connect(credential, env)).rejects.toThrow(NotLoggedIn);
    await expect(connect(credential, env)).rejects.toThrow(
      /^Cloudflare refused the login \(Cloudflare API GET \/accounts → 401 Invalid API Token \[code 1000\] .*\): run `npx wrangler login` again$/,
    );
  }, 60_000);

  it("a global API key (CLOUDFLARE_API_KEY + CLOUDFLARE_EMAIL) is not used: asks for a token", async () => {
    const env = withoutToken(tempDir("deploy-home-"), { CLOUDFLARE_API_KEY: "k", CLOUDFLARE_EMAIL: "a@example.com" });
    await expect(credentials(env)).rejects.toThrow(
      "wrangler is logged in with CLOUDFLARE_API_KEY + CLOUDFLARE_EMAIL (a global API key), which this script does not use: set CLOUDFLARE_API_TOKEN instead",
    );
  }, 60_000);

  it("a token that may not list the accounts, without CLOUDFLARE_ACCOUNT_ID: names Account Settings: Read", async () => {
    fake.account.permissions.delete("Account Settings: Read");
    const env = withoutToken(tempDir("deploy-home-"));
    await expect(connect({ token: FAKE_TOKEN, source: "CLOUDFLARE_API_TOKEN" }, env)).rejects.toThrow(
      new MissingPermission("Account Settings: Read", "find the account to deploy to"),
    );
  });

  it("with CLOUDFLARE_ACCOUNT_ID, an API token is verified before anything else", async () => {
    const api = await connect({ token: FAKE_TOKEN, source: "CLOUDFLARE_API_TOKEN" }, fake.environment());
    expect(api.accountId).toBe(FAKE_ACCOUNT_ID);
    expect(fake.calls).toEqual([{ method: "GET", path: "/user/tokens/verify", status: 200 }]);
  });
});

describe("where the deployment answers", () => {
  const api = () => connect({ token: FAKE_TOKEN, source: "CLOUDFLARE_API_TOKEN" }, fake.environment());

  it("its workers.dev URL, under the account's subdomain", async () => {
    const production = await readDeployment("production", REPO_CONFIG);
    expect(await workersDevUrl(await api(), production)).toBe("https://readiness-catalog.fake-subdomain.workers.dev");
  });

  it("an account without a workers.dev subdomain yet: says where to choose one", async () => {
    const production = await readDeployment("production", REPO_CONFIG);
    fake.account.subdomain = null;
    try {
      await expect(workersDevUrl(await api(), production)).rejects.toThrow(
        `the account has no workers.dev subdomain yet: choose one at https://dash.cloudflare.com/${FAKE_ACCOUNT_ID}/workers/onboarding`,
      );
    } finally {
      fake.account.subdomain = "fake-subdomain";
    }
  });

  it("its custom domain, when it has one, with no API call", async () => {
    const config = editedRepoConfig((toml) =>
      toml.replace(
        /^main = .*$/m,
        (main) => `${main}\nroutes = [{ pattern = "catalog.example.com", custom_domain = true }]`,
      ),
    );
    const client = await api();
    fake.calls.length = 0;
    expect(await workersDevUrl(client, await readDeployment("production", config))).toBe("https://catalog.example.com");
    expect(fake.calls).toEqual([]);
  });
});

describe("finding what exists", () => {
  it("reads every page of a list: a namespace on the second page is found, not made again", async () => {
    const client = await connect({ token: FAKE_TOKEN, source: "CLOUDFLARE_API_TOKEN" }, fake.environment());
    for (let n = 0; n < 120; n++) fake.account.kvNamespaces.set(`other${n}`, { id: `other${n}`, title: `other-${n}` });
    fake.account.kvNamespaces.set("on-page-two", { id: "on-page-two", title: "readiness-catalog-catalog-kv" });
    const production = await readDeployment("production", REPO_CONFIG);
    fake.calls.length = 0;
    const found = await ensureKvNamespaces(client, production);
    expect(found.find((resource) => resource.binding === "CATALOG_KV")).toEqual({
      binding: "CATALOG_KV",
      name: "readiness-catalog-catalog-kv",
      id: "on-page-two",
      created: false,
    });
    expect(fake.calls.filter((call) => call.method === "GET")).toHaveLength(2);
    expect(fake.calls.filter((call) => call.method === "POST")).toHaveLength(2); // the two others, made
  });
});

describe("the smoke test", () => {
  it("an origin that does not answer: says what it tried and what came back", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const lines: string[] = [];
    const problems = await smokeTest({
      url: `http://127.0.0.1:${port}`,
      liveWithinMs: 0,
      log: (line) => lines.push(line),
    });
    expect(problems).toEqual([
      expect.stringMatching(
        new RegExp(
          `^GET http://127\\.0\\.0\\.1:${port}/openapi\\.json did not answer 200 with OpenAPI 3\\.1 within 0 s \\(last: fetch failed \\(.*ECONNREFUSED.*\\)\\)$`,
        ),
      ),
    ]);
    expect(lines).toEqual([]);
  });
});
