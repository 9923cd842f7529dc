import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { provisionedApiKey } from "./support/api-key";
import { catalogState, type CatalogState } from "./support/catalog-state";
import { runProcess } from "./support/scripts";
import { REPO_ROOT, startWranglerDev, type DevServer } from "./support/wrangler-dev";

let state: CatalogState;
let server: DevServer;
let first: Awaited<ReturnType<CatalogState["build"]>>;
let consumer: string;
let tarball: string;

const run = (command: string, args: string[], cwd: string) => runProcess(command, args, { cwd });

/** npm as the test runner was started with (`npm test` sets npm_execpath), else the one on PATH. */
const npm = (args: string[], cwd: string) =>
  process.env.npm_execpath?.endsWith(".js")
    ? run(process.execPath, [process.env.npm_execpath, ...args], cwd)
    : run("npm", args, cwd);

beforeAll(async () => {
  state = catalogState();
  const packed = await run(process.execPath, [path.join(REPO_ROOT, "scripts/client-pack.mjs")], REPO_ROOT);
  expect(packed.code, packed.stderr).toBe(0);
  tarball = expectDefined(packed.stdout.trim().split("\n").at(-1), "the tarball, client-pack's last line");
  consumer = path.join(state.dir, "consumer");
  mkdirSync(consumer);
  const installed = await npm(["install", "--offline", "--no-audit", "--no-fund", tarball], consumer);
  expect(installed.code, installed.stderr).toBe(0);
  first = await state.publishSamples();
  server = await startWranglerDev({ persistTo: state.persistTo });
});

afterAll(async () => {
  await server?.stop();
  state?.remove();
});

const CONSUMER_SCRIPT = `
import { CatalogApiError, createCatalogClient as createWebClient } from "@readiness-catalog/client";
import { createCatalogClient } from "@readiness-catalog/client/node";

const [baseUrl, apiKey, out] = process.argv.slice(2);
const client = createCatalogClient({ baseUrl, apiKey });
const manifest = await client.currentRelease();
const ids = [];
const progress = [];
for await (const profile of createWebClient({ baseUrl, apiKey }).profiles({ release: manifest.release_id, onProgress: (p) => progress.push(p.phase) })) {
  ids.push(profile.agent_readiness_profile_id);
}
const fresh = await client.download(out);
const again = await client.download(out);
const denied = await createWebClient({ baseUrl, apiKey: apiKey.slice(0, -4) + "0000" }).currentRelease().catch((error) => error);
console.log(JSON.stringify({
  releaseId: manifest.release_id,
  ids,
  lastPhase: progress.at(-1),
  fetched: [fresh.partsFetched, again.partsFetched],
  denied: { apiError: denied instanceof CatalogApiError, status: denied.status, code: denied.code, requestId: denied.requestId },
}));
`;

describe("@readiness-catalog/client, installed from its tarball", () => {
  it("declares no dependencies and ships compiled JavaScript with declarations", () => {
    const manifest = JSON.parse(
      readFileSync(path.join(consumer, "node_modules/@readiness-catalog/client/package.json"), "utf8"),
    );
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.exports["."]).toEqual({ types: "./dist/index.d.ts", import: "./dist/index.js" });
    expect(manifest.exports["./node"]).toEqual({ types: "./dist/node.d.ts", import: "./dist/node.js" });
  });

  it("a plain node script streams the profiles, downloads the document (then only the manifest again), gets typed errors", async () => {
    writeFileSync(path.join(consumer, "consumer.mjs"), CONSUMER_SCRIPT);
    const out = path.join(consumer, "catalog.json");
    const ran = await run(process.execPath, ["consumer.mjs", server.url, provisionedApiKey(server.url), out], consumer);
    expect(ran.code, ran.stderr).toBe(0);
    const result = JSON.parse(ran.stdout);
    const data = JSON.parse(first.document.toString("utf8")).data as { agent_readiness_profile_id: string }[];
    expect(result.releaseId).toBe(first.manifest.release_id);
    expect(result.ids).toEqual(data.map((profile) => profile.agent_readiness_profile_id));
    expect(result.lastPhase).toBe("verified");
    expect(readFileSync(out).equals(first.document)).toBe(true);
    expect(result.fetched).toEqual([first.manifest.parts.length, 0]);
    expect(result.denied).toEqual({
      apiError: true,
      status: 401,
      code: "invalid_api_key",
      requestId: expect.stringMatching(/\S/),
    });
  });

  it("its declarations type-check a strict TypeScript consumer (module nodenext, no Node types)", async () => {
    writeFileSync(
      path.join(consumer, "consumer.ts"),
      `import { createCatalogClient, type CatalogApiError, type Profile, type ProfileResult } from "@readiness-catalog/client";
import { createCatalogClient as createNodeClient, type DownloadResult } from "@readiness-catalog/client/node";
const client = createCatalogClient({ baseUrl: "http://localhost:8787", accessToken: "oat_x" });
export async function use(signal: AbortSignal): Promise<[string, ProfileResult, DownloadResult, CatalogApiError["code"]]> {
  const grades: Profile["grade"][] = [];
  for await (const profile of client.profiles({ signal })) grades.push(profile.grade);
  const found = await client.profile("zurich-ledger-api", "reconciliation", { signal });
  const written = await createNodeClient({ baseUrl: "http://localhost:8787", apiKey: "sk_test_x" }).download("catalog.json", { onProgress: (p) => p.partsDone });
  return [(await client.currentRelease()).release_id, found, written, null];
}
`,
    );
    const tsconfig = {
      compilerOptions: {
        strict: true,
        module: "nodenext",
        moduleResolution: "nodenext",
        target: "es2022",
        lib: ["es2024", "dom"],
        types: [],
        noEmit: true,
      },
      files: ["consumer.ts"],
    };
    writeFileSync(path.join(consumer, "tsconfig.json"), JSON.stringify(tsconfig));
    const checked = await run(
      process.execPath,
      [path.join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-p", consumer],
      consumer,
    );
    expect(checked.stdout + checked.stderr).toBe("");
    expect(checked.code).toBe(0);
  });

  it("the main entry imports nothing from Node (it bundles for a browser-like runtime); the node entry does", async () => {
    const bundle = (entry: string) =>
      build({
        stdin: { contents: `export * from "${entry}";`, resolveDir: consumer },
        bundle: true,
        platform: "browser",
        write: false,
        logLevel: "silent",
      });
    await expect(bundle("@readiness-catalog/client")).resolves.toBeDefined();
    await expect(bundle("@readiness-catalog/client/node")).rejects.toThrow(/node:/);
  });
});
