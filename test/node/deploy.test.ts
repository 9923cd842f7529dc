/**
 * `npm run deploy` from start to end, with the real wrangler, against a local fake of the
 * Cloudflare API (deploy-support/fake-cloudflare.ts). Cloudflare is a remote SaaS that cannot run
 * locally; the fake stands in for it, answering the documented endpoints in the documented
 * envelope, recording every call, and running each uploaded worker in workerd so the deploy's own
 * smoke test calls a real deployed worker.
 *
 * The first deploy and a usage error run the command as a real process, through its door; the other
 * deploys run the engine in this process, from one bundle built and checked once
 * (deploy-support/in-process.ts). The refusals are in deploy-refusals.test.ts.
 */
import { appendFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { publishRelease } from "../../src/node/catalog/publish";
import { buildCatalog } from "../../src/node/catalog/build/build";
import { deployConfigPath, deployedD1Ids, deployedKvIds, keptSecretsPath } from "../../src/node/deploy/deploy-config";
import { openReleaseDir } from "../../src/node/catalog/release-dir";
import { runScript, type ScriptRun } from "../e2e/support/scripts";
import { FakeCloudflare } from "./deploy-support/fake-cloudflare";
import { editedRepoConfig, REPO_ROOT, repoConfigWithCopyOf, tempDir } from "./deploy-support/fixtures";
import { deployInProcess, environmentOf, type InProcessDeploy, sharedBundle } from "./deploy-support/in-process";

const DEPLOY_TIMEOUT = 180_000;
/** A deploy's stdout is its one summary line; its progress is on stderr. */
const SUMMARY_ONLY = /^[^\n]+\n$/;
const IN_TURN = { concurrent: false };
let fake: FakeCloudflare;
const deployDir = tempDir("deploy-dir-");

beforeAll(async () => {
  fake = await FakeCloudflare.start();
  // Built beside the first deploy (a child process); awaited, and its failure reported, by the next ones.
  sharedBundle().catch(() => undefined);
});
afterAll(() => fake?.close());

/** `npm run deploy` as a real process, through its door. */
async function deploy(args: string[] = []): Promise<ScriptRun> {
  const url = await fake.account.workers.edge.urlOf("readiness-catalog");
  fake.calls.length = 0;
  return runScript("deploy.ts", ["--deploy-dir", deployDir, "--url", url, ...args], { env: environmentOf(fake) });
}

const deployHere = (options: Omit<InProcessDeploy, "account" | "deployDir"> = {}) =>
  deployInProcess({ account: fake, deployDir, ...options });

const scriptOf = (name: string) => expectDefined(fake.account.workers.scripts.get(name), `the worker ${name}`);
const latestVersion = (name: string) => expectDefined(scriptOf(name).versions.at(-1), `a version of ${name}`);
const databaseNamed = (name: string) =>
  expectDefined(
    [...fake.account.d1.byId.values()].find((database) => database.name === name),
    `the D1 database ${name}`,
  );
const bindingOf = (version: ReturnType<typeof latestVersion>, name: string) =>
  version.bindings.find((binding) => binding.name === name);

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

// The deploys build on each other, in one account.
describe("one account, deploy after deploy", () => {
  describe("npm run deploy (production)", IN_TURN, () => {
    it(
      "first deploy: creates every namespace and the bucket, sets a generated OPERATOR_SECRET, uploads and smoke-tests",
      async () => {
        const run = await deploy();
        expect(run.stdout).toMatch(SUMMARY_ONLY);
        expect(run.code).toBe(0);
        // The MCP Registry entry, beside the deployment's config (test/node/deploy-server-json.test.ts).
        const origin = new URL(await fake.account.workers.edge.urlOf("readiness-catalog")).origin;
        const entry = JSON.parse(readFileSync(path.join(deployDir, "production.server.json"), "utf8"));
        expect(entry.remotes).toEqual([{ type: "streamable-http", url: `${origin}/mcp` }]);
        const titles = [...fake.account.kvNamespaces.values()].map((namespace) => namespace.title).sort();
        expect(titles).toEqual([
          "readiness-catalog-auth-kv",
          "readiness-catalog-catalog-kv",
          "readiness-catalog-oauth-kv",
        ]);
        expect([...fake.account.buckets.keys()]).toEqual(["readiness-catalog-releases"]);
        expect(run.stderr).toMatch(/CATALOG_KV: KV namespace readiness-catalog-catalog-kv \([0-9a-f]{32}\) created/);
        // The webhook queue exists before wrangler deploys its producer and consumer, which wrangler registers.
        const [queue] = [...fake.account.queues.byId.values()];
        expect(queue).toMatchObject({
          queue_name: "readiness-catalog-webhooks",
          consumers: [{ type: "worker", script: "readiness-catalog" }],
        });
        expect(run.stderr).toMatch(/queue readiness-catalog-webhooks \([0-9a-f]{32}\) created/);

        // The D1 database is made by name, and its schema is applied (by wrangler) before the worker goes up.
        const database = databaseNamed("readiness-catalog");
        expect(fake.account.d1.names()).toEqual(["readiness-catalog"]);
        expect(run.stderr).toContain(`CATALOG_DB: D1 database readiness-catalog (${database.uuid}) created`);
        expect(run.stderr).toContain("CATALOG_DB: D1 migrations of readiness-catalog: applied 0001_catalog_query.sql");
        const paths = fake.calls.map((call) => `${call.method} ${call.path.replace(/^\/accounts\/\w+/, "")}`);
        const lastQuery = paths.lastIndexOf(`POST /d1/database/${database.uuid}/query`);
        expect(lastQuery).toBeGreaterThan(-1);
        expect(lastQuery).toBeLessThan(paths.findIndex((call) => call.startsWith("PUT /workers/scripts/")));
        expect(await tablesOf(database.uuid)).toEqual(expect.arrayContaining(["d1_migrations", "query_profiles"]));

        const version = latestVersion("readiness-catalog");
        expect(version.migrationTag).toBe("v3");
        expect(version.observability).toEqual({ enabled: true, head_sampling_rate: 1 });
        expect(version.annotations["workers/tag"]).toMatch(/^build-[0-9a-f]{16}$/);
        const kvIds = Object.fromEntries(
          version.bindings.filter((b) => b.type === "kv_namespace").map((b) => [b.name, b.namespace_id]),
        );
        expect(Object.values(kvIds).sort()).toEqual([...fake.account.kvNamespaces.keys()].sort());
        expect(bindingOf(version, "CATALOG_DB")).toMatchObject({ type: "d1", id: database.uuid });

        // The secret on the worker is the one kept for the operator, in a file only its owner can read.
        const keptFile = keptSecretsPath(deployDir, "production");
        const secret = expectDefined(version.secrets.OPERATOR_SECRET, "the worker's OPERATOR_SECRET");
        expect(readFileSync(keptFile, "utf8")).toBe(`OPERATOR_SECRET=${secret}\n`);
        expect(secret).toMatch(/^[\w-]{43}$/);
        expect(statSync(keptFile).mode & 0o777).toBe(0o600);
        expect(run.stderr).toContain(
          `secret OPERATOR_SECRET: missing, set from a new value; kept in ${keptFile} (mode 0600)`,
        );
        expect(run.stdout + run.stderr).not.toContain(secret);

        // The ids live in the generated config, not in wrangler.toml.
        const generated = JSON.parse(readFileSync(deployConfigPath(deployDir, "production"), "utf8"));
        expect(
          Object.fromEntries(generated.kv_namespaces.map((kv: { binding: string; id: string }) => [kv.binding, kv.id])),
        ).toEqual(kvIds);
        expect(generated.d1_databases).toMatchObject([{ binding: "CATALOG_DB", database_id: database.uuid }]);
        expect(readFileSync(path.join(REPO_ROOT, "wrangler.toml"), "utf8")).not.toMatch(/^(?:database_)?id = /m);
        // The worker answers (and issues OAuth tokens) at the URL it was deployed to.
        const deployedTo = expectDefined(/^deployed production to (\S+):/m.exec(run.stdout)?.[1], "the deployed URL");
        expect(generated.vars.PUBLIC_ORIGINS).toEqual([new URL(deployedTo).origin]);
        expect(version.secrets.OAUTH_TOKEN_KEY).toMatch(/^[\w-]{43}$/);
        expect(version.secrets.CURSOR_KEY).toMatch(/^[\w-]{43}$/);

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

        expect(run.stderr).toContain("smoke: GET /openapi.json → 200 (OpenAPI 3.1.0)");
        expect(run.stderr).toContain("smoke: GET /v1/catalog without credentials → 401 problem+json (unauthenticated)");
        expect(run.stderr).toContain("smoke: no release is current yet");
        expect(run.stdout).toMatch(
          /^deployed production to http:\/\/127\.0\.0\.1:\d+: created readiness-catalog-catalog-kv, .*created readiness-catalog, .*applied the D1 migrations of CATALOG_DB, set OPERATOR_SECRET, set OAUTH_TOKEN_KEY, set CURSOR_KEY, deployed build-/m,
        );
      },
      DEPLOY_TIMEOUT,
    );

    it("records the ids where the --remote operator scripts read them", () => {
      const version = latestVersion("readiness-catalog");
      const kvIds = Object.fromEntries(
        version.bindings.filter((b) => b.type === "kv_namespace").map((b) => [b.name, b.namespace_id]),
      );
      expect(deployedKvIds(deployDir, "production")).toEqual(kvIds);
      expect(deployedD1Ids(deployDir, "production")).toEqual({ CATALOG_DB: databaseNamed("readiness-catalog").uuid });
      expect(deployedKvIds(deployDir, "sandbox")).toBeUndefined(); // not deployed yet
    });

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
        const versions = scriptOf("readiness-catalog").versions.length;
        const run = await deployHere();
        expect(run.code).toBe(0);
        expect(run.stdout).toMatch(SUMMARY_ONLY);
        expect(fake.writes()).toEqual([]);
        expect(scriptOf("readiness-catalog").versions).toHaveLength(versions);
        expect(run.stderr).toContain("CATALOG_KV: KV namespace readiness-catalog-catalog-kv");
        expect(run.stderr).toMatch(/CATALOG_DB: D1 database readiness-catalog \([\w-]{36}\) found/);
        expect(run.stderr).toContain("CATALOG_DB: D1 migrations of readiness-catalog: none to apply");
        expect(fake.account.d1.names()).toEqual(["readiness-catalog"]);
        expect(run.stderr).toContain("secret OPERATOR_SECRET: already set");
        expect(run.stderr).toContain("Durable Object migrations: v3 applied, none to apply");
        expect(run.stderr).toMatch(/worker: version 1 already is this build \(build-[0-9a-f]{16}\): not uploaded/);
        expect(run.stderr).toContain(
          "smoke: nothing was deployed, so the keyed check (it makes and revokes a key) is left out",
        );
        expect(run.stdout).toMatch(/^production is up to date at http:\/\/127\.0\.0\.1:\d+: nothing changed$/m);
      },
      DEPLOY_TIMEOUT,
    );

    it(
      "a new migration file is applied at the next deploy, and only it; the recorded ones are read, not reapplied",
      async () => {
        const config = repoConfigWithCopyOf("migrations_dir", "migrations", (migrations) =>
          writeFileSync(
            path.join(migrations, "0999_deploy_test.sql"),
            "CREATE TABLE deploy_test_marker (id INTEGER);\n",
          ),
        );
        const database = databaseNamed("readiness-catalog");

        const run = await deployHere({ config });
        expect(run.code).toBe(0);
        expect(run.stderr).toContain("CATALOG_DB: D1 migrations of readiness-catalog: applied 0999_deploy_test.sql");
        expect(run.stderr).not.toMatch(/applied [^\n]*0001_catalog_query\.sql/);
        expect(run.stdout).toContain("applied the D1 migrations of CATALOG_DB");
        expect(await tablesOf(database.uuid)).toContain("deploy_test_marker");
      },
      DEPLOY_TIMEOUT,
    );

    it(
      "a D1 database made anew (another id) is a new build: the worker is uploaded bound to the new database",
      async () => {
        const gone = databaseNamed("readiness-catalog").uuid;
        fake.account.d1.byId.delete(gone); // deleted from the dashboard, say

        const run = await deployHere();
        expect(run.code).toBe(0);
        const made = databaseNamed("readiness-catalog").uuid;
        expect(made).not.toBe(gone);
        expect(run.stderr).toContain(`CATALOG_DB: D1 database readiness-catalog (${made}) created`);
        expect(bindingOf(latestVersion("readiness-catalog"), "CATALOG_DB")).toMatchObject({ type: "d1", id: made });
        expect(run.stdout).toMatch(
          /^deployed production to .*: created readiness-catalog, .*deployed build-[0-9a-f]{16}$/m,
        );
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
        const before = latestVersion("readiness-catalog");

        const run = await deployHere({ config });
        expect(run.stdout).toMatch(SUMMARY_ONLY);
        expect(run.code).toBe(0);
        expect(writesTo(/storage\/kv|r2\/buckets/)).toEqual([]);
        const after = latestVersion("readiness-catalog");
        expect(after.number).toBe(before.number + 1);
        expect(after.secrets.OPERATOR_SECRET).toBe(before.secrets.OPERATOR_SECRET);
        expect(bindingOf(after, "RATE_LIMITS")).toMatchObject({ json: { live: { rate: 90, burst: 100 } } });
        // The code uploaded is the checked bundle, byte for byte (uploaded with --no-bundle).
        const uploaded = expectDefined(after.modules.get(after.main), "the uploaded main module").content;
        expect(Buffer.from(uploaded).equals(readFileSync((await sharedBundle()).main))).toBe(true);
        expect(run.stderr).toContain(
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
        const config = repoConfigWithCopyOf("directory", "static", (assets) =>
          appendFileSync(path.join(assets, "docs/assets/swagger-ui.css"), "\n/* changed */\n"),
        );
        const stored = fake.account.assets.files.size;

        const run = await deployHere({ config });
        expect(run.stdout).toMatch(SUMMARY_ONLY);
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
    const operatorSecret = () =>
      expectDefined(latestVersion("readiness-catalog").secrets.OPERATOR_SECRET, "the worker's OPERATOR_SECRET");

    it(
      "replaces the secret on the worker and in the kept file: the old one is refused, the new one works",
      async () => {
        const old = operatorSecret();
        const run = await deployHere({ rotate: ["OPERATOR_SECRET"] });
        expect(run.stdout).toMatch(SUMMARY_ONLY);
        expect(run.code).toBe(0);
        const rotated = operatorSecret();
        expect(rotated).not.toBe(old);
        expect(readFileSync(keptSecretsPath(deployDir, "production"), "utf8")).toBe(`OPERATOR_SECRET=${rotated}\n`);
        expect(run.stderr).toContain("secret OPERATOR_SECRET: rotated, set from a new value; kept in");
        expect(run.stdout).toMatch(/^deployed production to .*: rotated OPERATOR_SECRET, deployed build-/m);
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
          const run = await deployHere({ config });
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
        const run = await deployHere({ env: "sandbox" });
        expect(run.stdout).toMatch(SUMMARY_ONLY);
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
        const sandboxDb = databaseNamed("readiness-catalog-sandbox");
        expect(run.stderr).toContain(
          "CATALOG_DB: D1 migrations of readiness-catalog-sandbox: applied 0001_catalog_query.sql",
        );
        expect(await tablesOf(sandboxDb.uuid)).toEqual(expect.arrayContaining(["d1_migrations", "query_profiles"]));
        const sandbox = latestVersion("readiness-catalog-sandbox");
        const production = latestVersion("readiness-catalog");
        expect(bindingOf(sandbox, "DEPLOYMENT")).toMatchObject({ text: "sandbox" });
        expect(bindingOf(sandbox, "CATALOG_DB")).toMatchObject({ id: sandboxDb.uuid });
        expect(deployedD1Ids(deployDir, "sandbox")).toEqual({ CATALOG_DB: sandboxDb.uuid });
        expect(sandbox.secrets.OPERATOR_SECRET).not.toBe(production.secrets.OPERATOR_SECRET);
        expect(readFileSync(keptSecretsPath(deployDir, "sandbox"), "utf8")).toBe(
          `OPERATOR_SECRET=${sandbox.secrets.OPERATOR_SECRET}\n`,
        );
      },
      DEPLOY_TIMEOUT,
    );
  });
});
