import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Three suites, one command (`npm test`):
// - worker:  inside workerd, with the real local KV/R2/Durable Objects of wrangler.toml
// - scripts: the Node CLIs (build, publish, keys, pull) in plain Node 22
// - e2e:     the real `wrangler dev` on a free port, driven over HTTP (and a browser)
export default defineConfig({
  test: {
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
    projects: [
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" } })],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          // Builds the test catalog releases from data/profiles (Node) and provides them to workerd.
          globalSetup: ["test/worker/support/catalog-releases.global-setup.ts"],
        },
      },
      {
        test: { name: "scripts", include: ["test/scripts/**/*.test.ts"], environment: "node", testTimeout: 60_000 },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
