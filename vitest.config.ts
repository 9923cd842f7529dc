import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { unstable_readConfig } from "wrangler";
import { copyDocsAssets } from "./src/node/local/docs-assets.mjs";
import { localOperator } from "./src/node/operator/local-operator";
import { LongestFirst } from "./test/sequencer";

// Four suites, one command (`npm test`):
// - worker:  inside workerd, with the real local KV/R2/Durable Objects of wrangler.toml
// - worker-sandbox: the same, with the bindings and vars of [env.sandbox]
// - node:    the Node engines and CLIs (build, publish, keys, pull) and the client package, in Node 22
// - e2e:     the real `wrangler dev` on a free port, driven over HTTP (and a browser)

// What wrangler.toml leaves to each deployment: the tests' public origin (their requests go to
// https://api.test, not to a real deployment's domain) and fresh OAuth token and cursor keys (secrets).
// wrangler.toml's [assets] directory must exist before a worker project or wrangler dev starts.
copyDocsAssets();
// The checkout's local operator secrets (.wrangler/operator.env), made once here, before test files
// that run at once (npm start, npm run keys and the OAuth e2e fixture read them) could each make it.
localOperator();

// WEBHOOK_LOCAL_TARGETS lets webhooks reach the tests' receiver on 127.0.0.1, as under `npm start`.
// The D1 migrations (migrations/), applied to each test file's CATALOG_DB by apply-migrations.ts,
// and wrangler.toml's KV namespaces and R2 buckets, which it empties: a binding added there is too.
const declared = unstable_readConfig({ config: "wrangler.toml" }, { hideWarnings: true });
const testBindings = {
  PUBLIC_ORIGINS: ["https://api.test"],
  OAUTH_TOKEN_KEY: randomBytes(32).toString("base64url"),
  CURSOR_KEY: randomBytes(32).toString("base64url"),
  WEBHOOK_LOCAL_TARGETS: "loopback",
  // Usage counts written at once after each request, not batched over 1 s: `call()` in the tests
  // waits for a request's waitUntil work. test/worker/usage.counting.test.ts tests the batching.
  USAGE_BATCH_MS: 0,
  TEST_MIGRATIONS: await readD1Migrations("migrations"),
  TEST_STORAGE: {
    kv: declared.kv_namespaces.map((namespace) => namespace.binding),
    r2: declared.r2_buckets.map((bucket) => bucket.binding),
  },
};

// wrangler.toml's webhook consumer, but handed each message at once: deployed, the queue waits up
// to 1 s (max_batch_timeout) to fill a batch, which each webhook test that waits for a delivery
// would wait out. The batch size and retries stay wrangler.toml's.
const WEBHOOK_QUEUE = "readiness-catalog-webhooks";
const webhookConsumerNow = { maxBatchSize: 10, maxBatchTimeout: 0, maxRetries: 10 };

export default defineConfig({
  test: {
    reporters: ["default", "json"],
    // One file per core, at least two (the worker project sets its own). Vitest's default is one
    // worker less than the cores: on a 2-core machine, one, and the whole suite ran one file at a
    // time (650 s). A file more than the cores (3 on 2) does not help the other projects: their
    // files start processes that keep the cores busy, and a third file's only make the others'
    // slower (2026-11-29, same tree: 3 files at once 925–958 s and 1,353–1,416 s of CPU; 2 at once
    // 892 s and 1,283 s of CPU).
    maxWorkers: Math.max(2, availableParallelism()),
    // The longest files first, whatever their project; the worker project's files last, together.
    sequence: { sequencer: LongestFirst },
    outputFile: { json: "test-results/vitest.json" },
    // `npm run coverage`: line coverage of the Node side (the node project runs in Node, where V8
    // coverage works; the worker's tests run inside workerd, where it does not). Per file and per
    // folder in test-results/coverage; docs/development.md reports the figures.
    // `npm run coverage:worker` overrides provider, include and directory from the command line
    // (one provider per run): Istanbul, which instruments the code, for the two worker projects.
    coverage: {
      provider: "v8",
      include: ["src/node/**", "src/common/**", "packages/client/src/**"],
      reporter: ["text-summary", "json-summary"],
      reportsDirectory: "test-results/coverage",
    },
    // The worker's access log (one JSON line per request, src/worker/http/access-log.ts) is for Workers
    // Logs; in test output it would bury everything else. test/worker/access-log.test.ts reads it.
    onConsoleLog: (log) => !log.includes('"message":"request"'),
    projects: [
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: { bindings: testBindings, queueConsumers: { [WEBHOOK_QUEUE]: webhookConsumerNow } },
          }),
        ],
        test: {
          name: "worker",
          // The files share one workerd and one isolate (a workerd start and the worker's modules
          // loaded once per runner, not once per file): each file still starts from empty storage and
          // an isolate that remembers nothing (test/worker/support/apply-migrations.ts).
          isolate: false,
          // After the other projects' files, as a group of its own with one runner more than the
          // cores: a runner here waits on its workerd and on vitest in turn, so two runners kept 2
          // cores ~75 % busy. The project alone on 2 cores, same tree (2026-11-29): 2 runners
          // 93.7, 103.7 and 108.0 s; 3 runners 87.3, 88.0 and 87.6 s (4: 90.7 s).
          sequence: { groupOrder: 1 },
          maxWorkers: Math.max(3, availableParallelism() + 1),
          include: ["test/worker/**/*.test.ts"],
          exclude: ["test/worker/**/*.sandbox.test.ts"],
          // Vitest's fake clock, made before each file so that its timers are fast in every file.
          setupFiles: ["test/worker/support/fast-fake-clock.ts", "test/worker/support/apply-migrations.ts"],
          // Builds the test catalog releases from data/profiles (Node) and provides them to workerd.
          // And starts the webhook receiver the queue consumer delivers to, and the server of the OAuth
          // client metadata documents (both on loopback, which WEBHOOK_LOCAL_TARGETS admits).
          globalSetup: [
            "test/worker/support/catalog-releases.global-setup.ts",
            "test/worker/support/webhook-receiver.global-setup.ts",
            "test/worker/support/document-server.global-setup.ts",
          ],
        },
      },
      {
        // The same worker with [env.sandbox]'s bindings and vars (test keys only): *.sandbox.test.ts.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml", environment: "sandbox" },
            miniflare: { bindings: testBindings },
          }),
        ],
        test: {
          name: "worker-sandbox",
          include: ["test/worker/**/*.sandbox.test.ts"],
          setupFiles: ["test/worker/support/apply-migrations.ts"],
          // The test releases, for what the sandbox shows of its own catalog (deployment.sandbox.test.ts).
          globalSetup: ["test/worker/support/catalog-releases.global-setup.ts"],
        },
      },
      {
        test: {
          name: "node",
          include: ["test/node/**/*.test.ts", "packages/client/test/**/*.test.ts"],
          environment: "node",
          // The files share their worker processes, as the worker project's do: a fresh process per
          // file loaded vitest, zod and the engines again 61 times, and each deploy file built and
          // checked its own bundle (2026-11-29, the node project alone: 557 → 471 s of CPU, 293 →
          // 250 s). What helpers make once lives in the run's scratch directory.
          isolate: false,
          globalSetup: ["test/node/support/scratch.global-setup.ts"],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          // Publishes the sample catalog once; each file starts from a copy of that state.
          globalSetup: ["test/e2e/support/samples-state.global-setup.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // expect.poll's default 1 s is less than one Playwright call takes under load (a CI run's
          // first page of dashboard.browser.test.ts read its heading too late): polls wait up to 15 s.
          expect: { poll: { timeout: 15_000 } },
          // Files run at once like the other projects' (three on 2 cores): each has its own free ports, its own
          // --persist-to state and its own Chromium. One at a time, they ran after every other file,
          // alone, with one core idle (in a CI run, e2e took 920 of the 1582 s, one file at a time).
        },
      },
    ],
  },
});
