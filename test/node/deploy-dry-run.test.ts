/**
 * `npm run deploy -- --dry-run`: what CI runs on every change, with no account and no network, and
 * each of its checks seen failing on a config or bundle made to break it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkBindings, envTypeBindings } from "../../src/node/deploy/check-bindings";
import { buildBundle, checkBudget, checkGlobalScope } from "../../src/node/deploy/check-bundle";
import { checkIsolation } from "../../src/node/deploy/check-isolation";
import { checkMigrations } from "../../src/node/deploy/check-migrations";
import { deploy } from "../../src/node/deploy/command";
import { runInProcess } from "./cli-in-process";
import { readDeployment, readDeployments } from "../../src/node/deploy/deployments";
import { checkedBundle } from "../../src/node/deploy/dry-run";
import type { ScriptRun } from "../e2e/support/scripts";
import { FakeCloudflare } from "./deploy-support/fake-cloudflare";
import {
  editedRepoConfig,
  envTypeWith,
  REPO_CONFIG,
  REPO_TYPES,
  smallWorker,
  tempDir,
} from "./deploy-support/fixtures";

/** The migrations the dry run must report (each deployment applies them all). */
const MIGRATIONS = readdirSync("migrations").filter((file) => file.endsWith(".sql")).length;

describe("npm run deploy -- --dry-run", () => {
  let fake: FakeCloudflare;
  let run: ScriptRun;
  const outDir = tempDir("dry-run-out-");
  beforeAll(async () => {
    // Any API call would land here; a home with no `wrangler login` and no token: nothing to log in with.
    fake = await FakeCloudflare.start();
    const home = tempDir("dry-run-home-");
    run = await runInProcess(deploy.run, ["--dry-run", "--outdir", outDir], {
      env: {
        CLOUDFLARE_API_BASE_URL: fake.baseUrl,
        CLOUDFLARE_API_TOKEN: "",
        CLOUDFLARE_ACCOUNT_ID: "",
        HOME: home,
        XDG_CONFIG_HOME: home,
      },
    });
  }, 120_000);
  afterAll(() => fake?.close());

  it("passes for production and the sandbox, building both bundles, with no account and no API call", () => {
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("config: bindings, migrations and isolation of production and sandbox check out");
    expect(run.stderr).toMatch(
      /^production: bundle [\d.]+ KiB compressed \(budget 768\.0 KiB\), starts in workerd with no I\/O in global scope$/m,
    );
    expect(run.stderr).toMatch(
      /^sandbox: bundle [\d.]+ KiB compressed \(budget 768\.0 KiB\), starts in workerd with no I\/O in global scope$/m,
    );
    expect(run.stderr).toContain(
      `production: CATALOG_DB: D1 database readiness-catalog, found or created by name on deploy; ${MIGRATIONS} migration(s) in migrations, the unapplied ones applied before the upload`,
    );
    expect(run.stderr).toContain(
      `sandbox: CATALOG_DB: D1 database readiness-catalog-sandbox, found or created by name on deploy; ${MIGRATIONS} migration(s) in migrations, the unapplied ones applied before the upload`,
    );
    // Progress on stderr; stdout is the summary line alone.
    expect(run.stdout).toBe("dry run passed for production and sandbox: nothing was deployed\n");
    expect(existsSync(path.join(outDir, "production", "index.js"))).toBe(true);
    expect(existsSync(path.join(outDir, "sandbox", "index.js"))).toBe(true);
    expect(fake.calls).toEqual([]);
  });

  it("holds each bundle to the budget", async () => {
    const production = await readDeployment("production", REPO_CONFIG);
    const bundle = { dir: path.join(outDir, "production"), main: "", files: [], gzipBytes: 800 * 1024 };
    expect(checkBudget(production, bundle)).toEqual([
      "production: the bundle is 800.0 KiB compressed, over the 768.0 KiB budget (Cloudflare's own limit is 3 MiB on the Free plan)",
    ]);
  });
});

describe("dry-run checks on broken configs", () => {
  it("a binding declared at the top level only: the sandbox lacks it", async () => {
    const config = editedRepoConfig((toml) =>
      toml.replace(
        '[[kv_namespaces]]\nbinding = "CATALOG_KV"',
        '[[kv_namespaces]]\nbinding = "AUDIT_KV"\n\n[[kv_namespaces]]\nbinding = "CATALOG_KV"',
      ),
    );
    const problems = checkBindings(
      envTypeBindings(envTypeWith("AUDIT_KV?: KVNamespace;")),
      await readDeployments(config),
    );
    expect(problems).toEqual([
      "AUDIT_KV (KV namespace) is in the Env type but [env.sandbox] does not declare it (bindings are not inherited: declare it there too)",
    ]);
  });

  it("a binding of another kind in one deployment", async () => {
    const config = editedRepoConfig((toml) =>
      toml
        .replace("[env.sandbox.vars]\n", '[env.sandbox.vars]\nAUTH_KV = "oops"\n')
        .replace(/\[\[env\.sandbox\.kv_namespaces\]\]\nbinding = "AUTH_KV"\n(?:preview_)?id = "[^"]*"\n/, ""),
    );
    const problems = checkBindings(envTypeBindings(readFileSync(REPO_TYPES, "utf8")), await readDeployments(config));
    expect(problems).toEqual(["AUTH_KV is a KV namespace in the Env type but a variable in [env.sandbox]"]);
  });

  it("a binding the Env type does not know yet: run npm run types", async () => {
    const config = editedRepoConfig(
      (toml) => `${toml}\n[[env.sandbox.r2_buckets]]\nbinding = "EXPORTS"\nbucket_name = "exports-sandbox"\n`,
    );
    const problems = checkBindings(envTypeBindings(readFileSync(REPO_TYPES, "utf8")), await readDeployments(config));
    expect(problems).toEqual([
      "EXPORTS (R2 bucket) is declared in [env.sandbox] but missing from the Env type: run `npm run types`",
    ]);
  });

  it("a bound class no migration creates, and deployments with different migrations", async () => {
    const config = editedRepoConfig((toml) =>
      toml.replace('[[migrations]]\ntag = "v3"\nrenamed_classes = [{ from = "KeyGuard", to = "SubjectGuard" }]\n', ""),
    );
    expect(checkMigrations(await readDeployments(config))).toEqual([
      "production: SUBJECT_GUARDS binds SubjectGuard, which no migration creates (add it to a new migration's new_sqlite_classes)",
      "sandbox declares other Durable Object migrations than production (v1: AccountObject, AccountDirectory, KeyGuard; v2: WebhookStore; v3: KeyGuard → SubjectGuard; production: v1: AccountObject, AccountDirectory, KeyGuard; v2: WebhookStore), but both run the same code",
    ]);
  });

  it("a tag used twice, a class created twice and the deletion of a class never created", async () => {
    const config = editedRepoConfig((toml) =>
      toml.replaceAll(
        'tag = "v2"\nnew_sqlite_classes = ["WebhookStore"]',
        'tag = "v1"\nnew_sqlite_classes = ["WebhookStore", "AccountObject"]\ndeleted_classes = ["Ghost"]',
      ),
    );
    expect(checkMigrations(await readDeployments(config))).toEqual(
      ["production", "sandbox"].flatMap((name) => [
        `${name}: migration tag v1 appears twice`,
        `${name}: migration v1 creates AccountObject, which already exists`,
        `${name}: migration v1 deletes Ghost, which no earlier migration created`,
      ]),
    );
  });

  it("a rename of a class no earlier migration created", async () => {
    const config = editedRepoConfig((toml) =>
      toml.replaceAll(
        'renamed_classes = [{ from = "KeyGuard", to = "SubjectGuard" }]',
        'renamed_classes = [{ from = "KeyGard", to = "SubjectGuard" }]',
      ),
    );
    expect(checkMigrations(await readDeployments(config))).toEqual([
      "production: migration v3 renames KeyGard, which no earlier migration created",
      "sandbox: migration v3 renames KeyGard, which no earlier migration created",
    ]);
  });

  it("two deployments sharing a bucket, a D1 database, a queue or a rate-limit namespace", async () => {
    const config = editedRepoConfig((toml) =>
      toml
        .replace('bucket_name = "readiness-catalog-releases-sandbox"', 'bucket_name = "readiness-catalog-releases"')
        .replace('database_name = "readiness-catalog-sandbox"', 'database_name = "readiness-catalog"')
        .replaceAll('queue = "readiness-catalog-webhooks-sandbox"', 'queue = "readiness-catalog-webhooks"')
        .replace('namespace_id = "1002"', 'namespace_id = "1001"'),
    );
    expect(checkIsolation(await readDeployments(config))).toEqual([
      "production and sandbox share the R2 bucket readiness-catalog-releases",
      "production and sandbox share the D1 database readiness-catalog",
      "production and sandbox share the queue readiness-catalog-webhooks",
      "production and sandbox share the rate-limit namespace 1001",
    ]);
  });

  it("a queue producer declared at the top level only: the sandbox lacks it", async () => {
    const config = editedRepoConfig((toml) =>
      toml.replace(/\[\[env\.sandbox\.queues\.producers\]\]\nbinding = "WEBHOOK_QUEUE"\nqueue = "[^"]*"\n/, ""),
    );
    const problems = checkBindings(envTypeBindings(readFileSync(REPO_TYPES, "utf8")), await readDeployments(config));
    expect(problems).toEqual([
      "WEBHOOK_QUEUE (queue) is in the Env type but [env.sandbox] does not declare it (bindings are not inherited: declare it there too)",
    ]);
  });
});

describe("dry-run: the global scope does no I/O", () => {
  const check = async (source: string, toml = "") => {
    const config = smallWorker(source, toml);
    const deployment = await readDeployment("production", config);
    const bundle = await buildBundle(deployment, config, path.join(path.dirname(config), "out"));
    return checkGlobalScope(deployment, bundle);
  };
  const handler = 'export default { fetch() { return new Response("ok"); } };\n';

  it("passes a worker whose global scope only defines things", async () => {
    expect(await check(`const table = new Map([["a", 1]]);\n${handler}`)).toEqual([]);
  }, 60_000);

  it("fails a worker that fetches in its global scope, with workerd's reason", async () => {
    const [problem] = await check(`const seed = await fetch("https://example.com/seed");\n${handler}`);
    expect(problem).toMatch(
      /^production: the bundle fails to start in workerd: .*Uncaught Error: Disallowed operation called within global scope/,
    );
  }, 60_000);

  it("fails a worker that reads a binding in its global scope", async () => {
    const source = `import { env } from "cloudflare:workers";\nconst cached = await env.CACHE.get("config");\n${handler}`;
    const [problem] = await check(source, '[[kv_namespaces]]\nbinding = "CACHE"\n');
    expect(problem).toContain("Disallowed operation called within global scope");
  }, 60_000);
});

describe("dry-run: a bundle wrangler cannot build", () => {
  it("is a problem, with wrangler's own reason", async () => {
    const config = smallWorker('import { missing } from "./nowhere.js";\nexport default { fetch: missing };\n');
    const deployment = await readDeployment("production", config);
    const lines: string[] = [];
    const outDir = path.join(path.dirname(config), "out");
    const checked = await checkedBundle(deployment, config, outDir, (line) => lines.push(line));
    expect(checked.bundle).toBeUndefined();
    expect(checked.problems).toEqual([
      expect.stringMatching(/^production: wrangler deploy --dry-run .* failed:\n[\s\S]*nowhere\.js/),
    ]);
    expect(lines).toEqual(["production: wrangler could not build the bundle"]);
  }, 60_000);
});
