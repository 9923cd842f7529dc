/**
 * `npm run deploy` stops with what to do, against a bare account of the local fake of the
 * Cloudflare API (deploy-support/fake-cloudflare.ts; Cloudflare is a remote SaaS that cannot run
 * here): offline checks that fail, a token that lacks a permission or is refused, no credential at
 * all. The command runs in this process (deploy-support/in-process.ts); its door is proven by
 * deploy.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploy } from "../../src/node/deploy/command";
import { runInProcess } from "./cli-in-process";
import { ALL_PERMISSIONS } from "./deploy-support/fake-account";
import { FakeCloudflare } from "./deploy-support/fake-cloudflare";
import { editedRepoConfig, tempDir } from "./deploy-support/fixtures";
import { deployInProcess, environmentOf, sharedBundle } from "./deploy-support/in-process";

const DEPLOY_TIMEOUT = 180_000;
let bare: FakeCloudflare;
beforeAll(async () => {
  bare = await FakeCloudflare.start();
  sharedBundle().catch(() => undefined); // built beside the first test, which builds its own
});
afterAll(() => bare?.close());

/** The token may read `area` but not edit it, and do everything else. */
const readOnly = (area: string) => {
  bare.account.permissions.clear();
  for (const permission of ALL_PERMISSIONS) bare.account.permissions.add(permission);
  bare.account.permissions.delete(`${area}: Edit`);
  bare.account.permissions.add(`${area}: Read`);
};

const deployTo = (environment: Record<string, string> = {}) =>
  deployInProcess({ account: bare, url: "http://127.0.0.1:9", deployDir: tempDir("deploy-dir-"), environment });

describe("npm run deploy stops with what to do", () => {
  it(
    "when the offline checks fail: lists the problems and calls no API",
    async () => {
      const config = editedRepoConfig((toml) =>
        toml.replace(
          'bucket_name = "readiness-catalog-releases-sandbox"',
          'bucket_name = "readiness-catalog-releases"',
        ),
      );
      bare.calls.length = 0;
      const args = ["--config", config, "--deploy-dir", tempDir("deploy-dir-")];
      const run = await runInProcess(deploy.run, args, { env: environmentOf(bare) });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      // The checks' progress, then the failure, on stderr.
      expect(run.stderr).toMatch(
        /\ndeploy: production was not deployed, 1 problem:\n {2}- production and sandbox share the R2 bucket readiness-catalog-releases\n$/,
      );
      expect(bare.calls).toEqual([]);
    },
    DEPLOY_TIMEOUT,
  );

  it.each([
    {
      area: "Workers KV Storage",
      action: "create the KV namespace readiness-catalog-catalog-kv",
      made: () => bare.account.kvNamespaces.size,
    },
    { area: "D1", action: "create the D1 database readiness-catalog", made: () => bare.account.d1.names().length },
    // The upload is wrangler's: the refusal comes through wrangler's output.
    {
      area: "Workers Scripts",
      action: "upload the worker readiness-catalog",
      made: () => bare.account.workers.scripts.size,
    },
  ])(
    "when the token may not edit $area: names the permission, and nothing of it is made",
    async ({ area, action, made }) => {
      readOnly(area);
      await expect(deployTo()).rejects.toThrow(
        `the Cloudflare API token lacks the permission "${area}: Edit" (needed to ${action})`,
      );
      expect(made()).toBe(0);
    },
    DEPLOY_TIMEOUT,
  );

  it(
    "when the token may read a D1 database that exists but not edit it: names D1: Edit before the upload",
    async () => {
      expect(bare.account.d1.names()).toEqual(["readiness-catalog"]); // made by the Workers Scripts case above
      readOnly("D1");
      await expect(deployTo()).rejects.toThrow(
        'the Cloudflare API token lacks the permission "D1: Edit" (needed to apply the D1 migrations of readiness-catalog)',
      );
      expect(bare.calls.find((call) => call.path.endsWith("/query"))).toMatchObject({ method: "POST", status: 403 });
      expect(bare.account.workers.scripts.size).toBe(0);
    },
    DEPLOY_TIMEOUT,
  );

  it(
    "when the API refuses the token itself",
    async () => {
      await expect(deployTo({ CLOUDFLARE_API_TOKEN: "revoked-token" })).rejects.toThrow(
        /^Cloudflare refused the API token \(.*Invalid API Token \[code 1000\]/,
      );
      expect(bare.writes()).toEqual([]);
    },
    DEPLOY_TIMEOUT,
  );

  it(
    "when not logged in at all: says how to log in at once, before the offline checks, exits 1, and calls no API",
    async () => {
      bare.calls.length = 0;
      const args = ["--deploy-dir", tempDir("deploy-dir-"), "--url", "http://127.0.0.1:9"];
      const run = await runInProcess(deploy.run, args, { env: environmentOf(bare, { CLOUDFLARE_API_TOKEN: "" }) });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(/^deploy: not logged in to Cloudflare: run `npx wrangler login`.*\n$/);
      expect(bare.calls).toEqual([]);
    },
    DEPLOY_TIMEOUT,
  );
});
