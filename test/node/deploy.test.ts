/**
 * `npm run deploy` from start to end, run as a real process with the real wrangler, against a local
 * fake of the Cloudflare API (deploy-support/fake-cloudflare.ts). Cloudflare is a remote SaaS that
 * cannot run locally; the fake stands in for it, answering the documented endpoints in the
 * documented envelope, recording every call, and running each uploaded worker in workerd so the
 * deploy's own smoke test calls a real deployed worker.
 */
import { appendFileSync, cpSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishRelease } from "../../src/node/catalog/publish";
import { buildCatalog } from "../../src/node/catalog/build/build";
import { deployConfigPath, keptSecretsPath } from "../../src/node/deploy/deploy-config";
import { openReleaseDir } from "../../src/node/catalog/release-dir";
import { runScript, type ScriptRun } from "../e2e/support/scripts";
import { ALL_PERMISSIONS } from "./deploy-support/fake-account";
import { FakeCloudflare } from "./deploy-support/fake-cloudflare";
import { editedRepoConfig, REPO_ROOT, tempDir } from "./deploy-support/fixtures";

const DEPLOY_TIMEOUT = 180_000;
/** A lane runs beside the other; the tests in it one after the other. */
const LANE = { concurrent: true };
const IN_TURN = { concurrent: false };
let fake: FakeCloudflare;
const deployDir = tempDir("deploy-dir-");
const home = tempDir("deploy-home-"); // no `wrangler login` state: only the fake's token

beforeAll(async () => {
  fake = await FakeCloudflare.start();
});
afterAll(() => fake?.close());

async function deploy(args: string[] = [], env: Record<string, string> = {}): Promise<ScriptRun> {
  const worker = args.includes("sandbox") ? "readiness-catalog-sandbox" : "readiness-catalog";
  const url = await fake.account.workers.edge.urlOf(worker);
  fake.calls.length = 0;
  return runScript("deploy.ts", ["--deploy-dir", deployDir, "--url", url, ...args], {
    env: { ...fake.environment(), HOME: home, XDG_CONFIG_HOME: home, ...env },
  });
}

/** The tables of a D1 database of the fake account, by name (SQLite's and Cloudflare's own left out). */
async function tablesOf(databaseId: string): Promise<string[]> {
  const { results } = await fake.account.workers.edge.d1Query(
    databaseId,
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
    [],
  );
  return (results as { name: string }[]).map((row) => row.name);
}

const writesTo = (pattern: RegExp) => fake.writes().filter((call) => pattern.test(call.path));

// Two lanes at once, each a sequence of deploys to an account of its own: the production account's
// deploys build on each other; the refusals are made against a bare account.
describe("one account, deploy after deploy", LANE, () => {
  describe("npm run deploy (production)", IN_TURN, () => {
    it(
      "first deploy: creates every namespace and the bucket, sets a generated OPERATOR_SECRET, uploads and smoke-tests",
      async () => {
        const run = await deploy();
        expect(run.stderr).toBe("");
        expect(run.code).toBe(0);
        const titles = [...fake.account.kvNamespaces.values()].map((namespace) => namespace.title).sort();
        expect(titles).toEqual([
          "readiness-catalog-auth-kv",
          "readiness-catalog-catalog-kv",
          "readiness-catalog-oauth-kv",
        ]);
        expect([...fake.account.buckets.keys()]).toEqual(["readiness-catalog-releases"]);
        expect(run.stdout).toMatch(/CATALOG_KV: KV namespace readiness-catalog-catalog-kv \([0-9a-f]{32}\) created/);
        // The webhook queue exists before wrangler deploys its producer and consumer, which wrangler registers.
        const [queue] = [...fake.account.queues.byId.values()];
        expect(queue).toMatchObject({
          queue_name: "readiness-catalog-webhooks",
          consumers: [{ type: "worker", script: "readiness-catalog" }],
        });
        expect(run.stdout).toMatch(/queue readiness-catalog-webhooks \([0-9a-f]{32}\) created/);

        // The D1 database is made by name, and its schema is applied (by wrangler) before the worker goes up.
        const [database] = [...fake.account.d1.byId.values()];
        expect(fake.account.d1.names()).toEqual(["readiness-catalog"]);
        expect(run.stdout).toContain(`CATALOG_DB: D1 database readiness-catalog (${database!.uuid}) created`);
        expect(run.stdout).toContain("CATALOG_DB: D1 migrations of readiness-catalog: applied 0001_catalog_query.sql");
        const paths = fake.calls.map((call) => `${call.method} ${call.path.replace(/^\/accounts\/\w+/, "")}`);
        const lastQuery = paths.lastIndexOf(`POST /d1/database/${database!.uuid}/query`);
        expect(lastQuery).toBeGreaterThan(-1);
        expect(lastQuery).toBeLessThan(paths.findIndex((call) => call.startsWith("PUT /workers/scripts/")));
        expect(await tablesOf(database!.uuid)).toEqual(expect.arrayContaining(["d1_migrations", "query_profiles"]));

        const script = fake.account.workers.scripts.get("readiness-catalog")!;
        const version = script.versions.at(-1)!;
        expect(version.migrationTag).toBe("v3");
        expect(version.observability).toEqual({ enabled: true, head_sampling_rate: 1 });
        expect(version.annotations["workers/tag"]).toMatch(/^build-[0-9a-f]{16}$/);
        const kvIds = Object.fromEntries(
          version.bindings.filter((b) => b.type === "kv_namespace").map((b) => [b.name, b.namespace_id]),
        );
        expect(Object.values(kvIds).sort()).toEqual([...fake.account.kvNamespaces.keys()].sort());
        expect(version.bindings.find((b) => b.name === "CATALOG_DB")).toMatchObject({ type: "d1", id: database!.uuid });

        // The secret on the worker is the one kept for the operator, in a file only its owner can read.
        const keptFile = keptSecretsPath(deployDir, "production");
        expect(readFileSync(keptFile, "utf8")).toBe(`OPERATOR_SECRET=${version.secrets.OPERATOR_SECRET}\n`);
        expect(version.secrets.OPERATOR_SECRET).toMatch(/^[\w-]{43}$/);
        expect(statSync(keptFile).mode & 0o777).toBe(0o600);
        expect(run.stdout).toContain(
          `secret OPERATOR_SECRET: missing, set from a new value; kept in ${keptFile} (mode 0600)`,
        );
        expect(run.stdout).not.toContain(version.secrets.OPERATOR_SECRET);

        // The ids live in the generated config, not in wrangler.toml.
        const generated = JSON.parse(readFileSync(deployConfigPath(deployDir, "production"), "utf8"));
        expect(
          Object.fromEntries(generated.kv_namespaces.map((kv: { binding: string; id: string }) => [kv.binding, kv.id])),
        ).toEqual(kvIds);
        expect(generated.d1_databases).toMatchObject([{ binding: "CATALOG_DB", database_id: database!.uuid }]);
        expect(readFileSync(path.join(REPO_ROOT, "wrangler.toml"), "utf8")).not.toMatch(/^(?:database_)?id = /m);
        // The worker answers (and issues OAuth tokens) at the URL it was deployed to.
        const deployedTo = /^deployed production to (\S+):/m.exec(run.stdout)?.[1];
        expect(generated.vars.PUBLIC_ORIGINS).toEqual([new URL(deployedTo!).origin]);
        expect(version.secrets.OAUTH_TOKEN_KEY).toMatch(/^[\w-]{43}$/);

        // The API reference's static assets went up through an upload session and are served by the deployed worker.
        expect(
          writesTo(/\/assets-upload-session$|\/workers\/assets\/upload$/).map((call) =>
            call.path.replace(/^.*\/workers\//, ""),
          ),
        ).toEqual(["scripts/readiness-catalog/assets-upload-session", "assets/upload"]);
        expect(fake.account.assets.files.size).toBe(4);
        const css = await fetch(`${deployedTo}/docs/assets/swagger-ui.css`);
        expect([css.status, css.headers.get("Content-Type")]).toEqual([200, "text/css; charset=utf-8"]);
        expect(await css.text()).toBe(readFileSync(path.join(REPO_ROOT, "static/docs/assets/swagger-ui.css"), "utf8"));

        expect(run.stdout).toContain("smoke: GET /openapi.json → 200 (OpenAPI 3.1.0)");
        expect(run.stdout).toContain("smoke: GET /v1/catalog without credentials → 401 problem+json (unauthenticated)");
        expect(run.stdout).toContain("smoke: no release is current yet");
        expect(run.stdout).toMatch(
          /^deployed production to http:\/\/127\.0\.0\.1:\d+: created readiness-catalog-catalog-kv, .*created readiness-catalog, .*applied the D1 migrations of CATALOG_DB, set OPERATOR_SECRET, set OAUTH_TOKEN_KEY, deployed build-/m,
        );
      },
      DEPLOY_TIMEOUT,
    );

    it("the deployed worker logs one JSON line per request, with the request id its responses carry", () => {
      const lines = fake.account.workers.edge.logs
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line));
      const unauthenticated = lines.find((line) => line.route === "/v1/catalog" && line.status === 401);
      expect(unauthenticated).toMatchObject({
        message: "request",
        method: "GET",
        request_id: expect.stringMatching(/^req_/),
        duration_ms: expect.any(Number),
      });
    });

    it(
      "second deploy: finds everything, creates and uploads nothing, and says so",
      async () => {
        const versions = fake.account.workers.scripts.get("readiness-catalog")!.versions.length;
        const run = await deploy();
        expect(run.code).toBe(0);
        expect(fake.writes()).toEqual([]);
        expect(fake.account.workers.scripts.get("readiness-catalog")!.versions).toHaveLength(versions);
        expect(run.stdout).toContain("CATALOG_KV: KV namespace readiness-catalog-catalog-kv");
        expect(run.stdout).toMatch(/CATALOG_DB: D1 database readiness-catalog \([\w-]{36}\) found/);
        expect(run.stdout).toContain("CATALOG_DB: D1 migrations of readiness-catalog: none to apply");
        expect(fake.account.d1.names()).toEqual(["readiness-catalog"]);
        expect(run.stdout).toContain("secret OPERATOR_SECRET: already set");
        expect(run.stdout).toContain("Durable Object migrations: v3 applied, none to apply");
        expect(run.stdout).toMatch(/worker: version 1 already is this build \(build-[0-9a-f]{16}\): not uploaded/);
        expect(run.stdout).toMatch(/^production is up to date at http:\/\/127\.0\.0\.1:\d+: nothing changed$/m);
      },
      DEPLOY_TIMEOUT,
    );

    it(
      "a changed setting uploads only the worker, keeps the secret, and the smoke test reads the published release with an operator-made key",
      async () => {
        const release = await buildCatalog({
          input: path.join(REPO_ROOT, "data/profiles"),
          outDir: tempDir("deploy-release-"),
          threads: 0,
        });
        await publishRelease(
          await fake.account.workers.edge.catalogStorage("readiness-catalog"),
          openReleaseDir(release.releaseDir),
        );
        const config = editedRepoConfig((toml) =>
          toml.replace("RATE_LIMITS = { live = { rate = 100,", "RATE_LIMITS = { live = { rate = 90,"),
        );
        const before = fake.account.workers.scripts.get("readiness-catalog")!.versions.at(-1)!;

        const run = await deploy(["--config", config]);
        expect(run.stderr).toBe("");
        expect(run.code).toBe(0);
        expect(writesTo(/storage\/kv|r2\/buckets/)).toEqual([]);
        const after = fake.account.workers.scripts.get("readiness-catalog")!.versions.at(-1)!;
        expect(after.number).toBe(before.number + 1);
        expect(after.secrets.OPERATOR_SECRET).toBe(before.secrets.OPERATOR_SECRET);
        expect(after.bindings.find((binding) => binding.name === "RATE_LIMITS")).toMatchObject({
          json: { live: { rate: 90, burst: 100 } },
        });
        expect(run.stdout).toContain(
          `smoke: HEAD /v1/catalog with an operator-made key → 200 (${release.manifest.release_id})`,
        );
        expect(run.stdout).toMatch(/^deployed production to .*: deployed build-[0-9a-f]{16}$/m);
      },
      DEPLOY_TIMEOUT,
    );
  });

  describe("npm run deploy: static assets", IN_TURN, () => {
    it(
      "a changed asset is a new build: only that file is uploaded, and the worker serves it",
      async () => {
        const assets = tempDir("deploy-assets-");
        cpSync(path.join(REPO_ROOT, "static"), assets, { recursive: true });
        appendFileSync(path.join(assets, "docs/assets/swagger-ui.css"), "\n/* changed */\n");
        const config = editedRepoConfig((toml) =>
          toml.replaceAll(`directory = "${path.join(REPO_ROOT, "static")}"`, `directory = "${assets}"`),
        );
        const stored = fake.account.assets.files.size;

        const run = await deploy(["--config", config]);
        expect(run.stderr).toBe("");
        expect(run.code).toBe(0);
        expect(run.stdout).toMatch(/^deployed production to .*: deployed build-[0-9a-f]{16}$/m);
        expect(fake.account.assets.files.size).toBe(stored + 1);
        const css = await fetch(
          `${await fake.account.workers.edge.urlOf("readiness-catalog")}/docs/assets/swagger-ui.css`,
        );
        expect(await css.text()).toMatch(/\/\* changed \*\/\n$/);
      },
      DEPLOY_TIMEOUT,
    );
  });

  describe("npm run deploy -- --rotate-secret OPERATOR_SECRET", IN_TURN, () => {
    it(
      "replaces the secret on the worker and in the kept file: the old one is refused, the new one works",
      async () => {
        const old = fake.account.workers.scripts.get("readiness-catalog")!.versions.at(-1)!.secrets.OPERATOR_SECRET!;
        const run = await deploy(["--rotate-secret", "OPERATOR_SECRET"]);
        expect(run.stderr).toBe("");
        expect(run.code).toBe(0);
        const rotated = fake.account.workers.scripts.get("readiness-catalog")!.versions.at(-1)!.secrets
          .OPERATOR_SECRET!;
        expect(rotated).not.toBe(old);
        expect(readFileSync(keptSecretsPath(deployDir, "production"), "utf8")).toBe(`OPERATOR_SECRET=${rotated}\n`);
        expect(run.stdout).toContain("secret OPERATOR_SECRET: rotated, set from a new value; kept in");
        const operatorApi = `${await fake.account.workers.edge.urlOf("readiness-catalog")}/operator/v1/deployment`;
        expect((await fetch(operatorApi, { headers: { Authorization: `Bearer ${old}` } })).status).toBe(401);
        expect((await fetch(operatorApi, { headers: { Authorization: `Bearer ${rotated}` } })).status).toBe(200);
      },
      DEPLOY_TIMEOUT,
    );

    it(
      "a kept OPERATOR_SECRET that is not the worker's fails the smoke test, saying how to fix it",
      async () => {
        const keptFile = keptSecretsPath(deployDir, "production");
        const kept = readFileSync(keptFile, "utf8");
        writeFileSync(keptFile, `OPERATOR_SECRET=${"x".repeat(43)}\n`);
        try {
          const config = editedRepoConfig((toml) =>
            toml.replace("RATE_LIMITS = { live = { rate = 100,", "RATE_LIMITS = { live = { rate = 80,"),
          );
          const run = await deploy(["--config", config]);
          expect(run.code).toBe(1);
          expect(run.stderr).toContain("deploy: production is deployed, but its smoke test failed, 1 problem:");
          expect(run.stderr).toContain("the operator API refused the keyed check (401 invalid_token: ");
          expect(run.stderr).toContain("npm run deploy -- --rotate-secret OPERATOR_SECRET");
        } finally {
          writeFileSync(keptFile, kept);
        }
      },
      DEPLOY_TIMEOUT,
    );

    it(
      "refuses a secret the deployment does not declare (usage error)",
      async () => {
        const run = await deploy(["--rotate-secret", "NOPE"]);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain("deploy: --rotate-secret NOPE: production's secrets are OPERATOR_SECRET");
      },
      DEPLOY_TIMEOUT,
    );
  });

  describe("npm run deploy -- --env sandbox", IN_TURN, () => {
    it(
      "makes the sandbox its own worker, namespaces, bucket and secret, apart from production's",
      async () => {
        const run = await deploy(["--env", "sandbox"]);
        expect(run.stderr).toBe("");
        expect(run.code).toBe(0);
        const titles = [...fake.account.kvNamespaces.values()]
          .map((namespace) => namespace.title)
          .filter((title) => title.includes("sandbox"));
        expect(titles.sort()).toEqual([
          "readiness-catalog-sandbox-auth-kv",
          "readiness-catalog-sandbox-catalog-kv",
          "readiness-catalog-sandbox-oauth-kv",
        ]);
        expect(fake.account.buckets.has("readiness-catalog-releases-sandbox")).toBe(true);
        expect(fake.account.d1.names().sort()).toEqual(["readiness-catalog", "readiness-catalog-sandbox"]);
        const sandboxDb = [...fake.account.d1.byId.values()].find((db) => db.name === "readiness-catalog-sandbox");
        expect(run.stdout).toContain(
          "CATALOG_DB: D1 migrations of readiness-catalog-sandbox: applied 0001_catalog_query.sql",
        );
        expect(await tablesOf(sandboxDb!.uuid)).toEqual(expect.arrayContaining(["d1_migrations", "query_profiles"]));
        const sandbox = fake.account.workers.scripts.get("readiness-catalog-sandbox")!.versions.at(-1)!;
        const production = fake.account.workers.scripts.get("readiness-catalog")!.versions.at(-1)!;
        expect(sandbox.bindings.find((b) => b.name === "DEPLOYMENT")).toMatchObject({ text: "sandbox" });
        expect(sandbox.bindings.find((b) => b.name === "CATALOG_DB")).toMatchObject({ id: sandboxDb!.uuid });
        expect(sandbox.secrets.OPERATOR_SECRET).not.toBe(production.secrets.OPERATOR_SECRET);
        expect(readFileSync(keptSecretsPath(deployDir, "sandbox"), "utf8")).toBe(
          `OPERATOR_SECRET=${sandbox.secrets.OPERATOR_SECRET}\n`,
        );
      },
      DEPLOY_TIMEOUT,
    );
  });
});

describe("a bare account", LANE, () => {
  describe("npm run deploy stops with what to do", IN_TURN, () => {
    let bare: FakeCloudflare;
    beforeAll(async () => {
      bare = await FakeCloudflare.start();
    });
    afterAll(() => bare?.close());

    /** The token may read `area` but not edit it, and do everything else. */
    const readOnly = (area: string) => {
      bare.account.permissions.clear();
      for (const permission of ALL_PERMISSIONS) bare.account.permissions.add(permission);
      bare.account.permissions.delete(`${area}: Edit`);
      bare.account.permissions.add(`${area}: Read`);
    };

    const deployTo = (env: Record<string, string>) => {
      bare.calls.length = 0;
      return runScript("deploy.ts", ["--deploy-dir", tempDir("deploy-dir-"), "--url", "http://127.0.0.1:9"], {
        env: { ...bare.environment(), HOME: home, XDG_CONFIG_HOME: home, ...env },
      });
    };

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
        const run = await runScript("deploy.ts", ["--config", config, "--deploy-dir", tempDir("deploy-dir-")], {
          env: { ...bare.environment(), HOME: home, XDG_CONFIG_HOME: home },
        });
        expect(run.code).toBe(1);
        expect(run.stderr).toBe(
          "deploy: production was not deployed, 1 problem:\n  - production and sandbox share the R2 bucket readiness-catalog-releases\n",
        );
        expect(bare.calls).toEqual([]);
      },
      DEPLOY_TIMEOUT,
    );

    it(
      "when the token lacks a permission: names it, and creates nothing it cannot finish",
      async () => {
        readOnly("Workers KV Storage");
        const run = await deployTo({});
        expect(run.code).toBe(1);
        expect(run.stderr).toContain(
          'deploy: the Cloudflare API token lacks the permission "Workers KV Storage: Edit" (needed to create the KV namespace readiness-catalog-catalog-kv)',
        );
        expect(bare.calls.at(-1)).toMatchObject({ method: "POST", status: 403 });
        expect(bare.writes()).toEqual([]);
      },
      DEPLOY_TIMEOUT,
    );

    it(
      "when the token may not create D1 databases: names D1: Edit, before anything is uploaded",
      async () => {
        readOnly("D1");
        const run = await deployTo({});
        expect(run.code).toBe(1);
        expect(run.stderr).toContain(
          'deploy: the Cloudflare API token lacks the permission "D1: Edit" (needed to create the D1 database readiness-catalog)',
        );
        expect(bare.account.d1.names()).toEqual([]);
        expect(bare.account.workers.scripts.size).toBe(0);
      },
      DEPLOY_TIMEOUT,
    );

    it(
      "when the token may not upload workers: names Workers Scripts: Edit (the refusal comes through wrangler)",
      async () => {
        readOnly("Workers Scripts");
        const run = await deployTo({});
        expect(run.code).toBe(1);
        expect(run.stderr).toContain(
          'deploy: the Cloudflare API token lacks the permission "Workers Scripts: Edit" (needed to upload the worker readiness-catalog)',
        );
        expect(bare.account.workers.scripts.size).toBe(0);
      },
      DEPLOY_TIMEOUT,
    );

    it(
      "when the API refuses the token itself",
      async () => {
        const run = await deployTo({ CLOUDFLARE_API_TOKEN: "revoked-token" });
        expect(run.code).toBe(1);
        expect(run.stderr).toContain("deploy: Cloudflare refused the API token (");
        expect(run.stderr).toContain("Invalid API Token [code 1000]");
        expect(bare.writes()).toEqual([]);
      },
      DEPLOY_TIMEOUT,
    );

    it(
      "when not logged in at all: says how to log in, and calls no API",
      async () => {
        const run = await deployTo({ CLOUDFLARE_API_TOKEN: "" });
        expect(run.code).toBe(1);
        expect(run.stderr).toContain("deploy: not logged in to Cloudflare: run `npx wrangler login`");
        expect(bare.calls).toEqual([]);
      },
      DEPLOY_TIMEOUT,
    );
  });
});
