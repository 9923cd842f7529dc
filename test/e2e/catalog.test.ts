/**
 * End to end: the sample catalog built, published with the CLI into a temp state, served by the
 * real `wrangler dev`: read by a consumer's script through the client package, packed and
 * installed from its tarball; pulled + verified by `npm run catalog:pull`. Also: a publish and a
 * rollback while the server runs are served within a second (same persisted state; an isolate
 * reads `current` at most once a second).
 */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogState, SAMPLE_PROFILES, type CatalogState } from "./support/catalog-state";
import { provisionedApiKey } from "./support/api-key";
import { launchChromium } from "./support/chromium";
import { e2eFetch } from "./support/http";
import { rawExchange, rawGet, type RawResponse } from "./support/raw-http";
import { pullCatalog, runProcess } from "./support/scripts";
import { REPO_ROOT, startWranglerDev, type DevServer } from "./support/wrangler-dev";
import { expectDefined } from "../../src/common/expect";
import { catalogRollback } from "../../src/node/catalog/rollback-command";
import { runInProcess } from "../node/cli-in-process";

let state: CatalogState;
let server: DevServer;
let first: Awaited<ReturnType<CatalogState["build"]>>;

beforeAll(async () => {
  state = catalogState();
  first = await state.publishSamples();
  server = await startWranglerDev({ persistTo: state.persistTo });
});

afterAll(async () => {
  await server?.stop();
  state?.remove();
});

let consumer: string;

const run = (command: string, args: string[], cwd: string) => runProcess(command, args, { cwd });

/** npm as the test runner was started with (`npm test` sets npm_execpath), else the one on PATH. */
const npm = (args: string[], cwd: string) =>
  process.env.npm_execpath?.endsWith(".js")
    ? run(process.execPath, [process.env.npm_execpath, ...args], cwd)
    : run("npm", args, cwd);

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

// First: its script reads the samples as published, before the publish and rollback below.
describe("@readiness-catalog/client, installed from its tarball", () => {
  beforeAll(async () => {
    const packed = await run(process.execPath, [path.join(REPO_ROOT, "scripts/client-pack.mjs")], REPO_ROOT);
    expect(packed.code, packed.stderr).toBe(0);
    const tarball = expectDefined(packed.stdout.trim().split("\n").at(-1), "the tarball, client-pack's last line");
    consumer = path.join(state.dir, "consumer");
    mkdirSync(consumer);
    const installed = await npm(["install", "--offline", "--no-audit", "--no-fund", tarball], consumer);
    expect(installed.code, installed.stderr).toBe(0);
  });

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

describe("catalog over real HTTP", () => {
  it("npm run catalog:pull downloads, verifies and writes exactly the published document", async () => {
    const out = path.join(state.dir, "pulled.json");
    const run = await pullCatalog(server.url, out);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`pulled ${first.manifest.release_id}`);
    expect(run.stdout).toContain("verified");
    expect(readFileSync(out).equals(first.document)).toBe(true);
    expect(JSON.parse(readFileSync(out, "utf8")).data).toHaveLength(first.manifest.profile_count);
  });

  it("HEAD, a Range across a part boundary and If-None-Match behave over the wire", async () => {
    const head = await e2eFetch(server.url, "/v1/catalog", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(first.manifest.bytes));
    const boundary = expectDefined(first.manifest.parts[1], "part 1").offset;
    const range = await e2eFetch(server.url, "/v1/catalog", {
      headers: { Range: `bytes=${boundary - 3}-${boundary + 2}` },
    });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer()).equals(first.document.subarray(boundary - 3, boundary + 3))).toBe(
      true,
    );
    const cached = await e2eFetch(server.url, "/v1/catalog", {
      headers: { "If-None-Match": expectDefined(head.headers.get("etag"), "the ETag of the HEAD response") },
    });
    expect(cached.status).toBe(304);
  });

  it("with Accept-Encoding: gzip, br the wire carries the stored bytes: digests hold, a 206 is byte-exact", async () => {
    const accept = { "Accept-Encoding": "gzip, br" };
    const sha256 = (bytes: Buffer) => `sha-256=:${createHash("sha256").update(bytes).digest("base64")}:`;
    const expectIdentity = (res: RawResponse) => {
      expect(res.headers["content-encoding"] ?? "identity").toBe("identity");
      expect(res.headers["cache-control"]).toContain("no-transform");
    };

    const whole = await rawGet(server.url, "/v1/catalog", accept);
    expect(whole.status).toBe(200);
    expectIdentity(whole);
    expect(whole.body.equals(first.document)).toBe(true);
    expect(sha256(whole.body)).toBe(whole.headers["content-digest"]);

    const part = await rawGet(server.url, `/v1/releases/${first.manifest.release_id}/parts/1`, accept);
    expectIdentity(part);
    expect(sha256(part.body)).toBe(part.headers["content-digest"]);

    const range = await rawGet(server.url, "/v1/catalog", { ...accept, Range: "bytes=100-299" });
    expect(range.status).toBe(206);
    expectIdentity(range);
    expect(range.headers["content-range"]).toBe(`bytes 100-299/${first.manifest.bytes}`);
    expect(range.body.equals(first.document.subarray(100, 300))).toBe(true);

    const manifest = await rawGet(server.url, "/v1/releases/current", accept);
    expectIdentity(manifest);
    expect(JSON.parse(manifest.body.toString("utf8")).release_id).toBe(first.manifest.release_id);
  });

  it("odd requests over the wire: 405 with Allow for TRACE/PROPFIND, no 5xx for odd bytes or big headers", async () => {
    for (const method of ["TRACE", "PROPFIND", "DELETE"]) {
      const res = await rawExchange(server.url, method, "/v1/catalog");
      expect(res.status, method).toBe(405);
      expect(res.head).toMatch(/\r\nallow: GET, HEAD, OPTIONS\r\n/i);
      expect(res.head).toMatch(/\r\ncontent-type: application\/problem\+json\r\n/i);
    }
    const odd: [string, string, Record<string, string>][] = [
      ["GET", "/v1/releases/\xff\xfe/parts/0", {}],
      ["GET", "/v1/catalog?x=\xff&y=%E0%A4%A", {}],
      ["POST", "/oauth/token?%zz", { "Content-Length": "0" }],
      ["GET", "/v1/%63atalog", {}],
      ["GET", "/dashboard/\xff", {}],
      ["GET", "/v1/catalog", { "X-Padding": "a".repeat(64 * 1024) }],
    ];
    for (const [method, target, headers] of odd) {
      const res = await rawExchange(server.url, method, target, headers);
      expect(res.status, `${method} ${target.slice(0, 40)}`).toBeGreaterThanOrEqual(200);
      expect(res.status, `${method} ${target.slice(0, 40)}`).toBeLessThan(500);
    }
  });

  /** The release `HEAD /v1/catalog` names once it is `releaseId`, or the last one named after 2 s. */
  async function servedRelease(releaseId: string): Promise<string | null> {
    const deadline = Date.now() + 2_000;
    for (;;) {
      const served = (await e2eFetch(server.url, "/v1/catalog", { method: "HEAD" })).headers.get("catalog-release");
      if (served === releaseId || Date.now() > deadline) return served;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it("a publish and a rollback made while wrangler dev runs are served within a second", async () => {
    const subset = path.join(state.dir, "subset");
    mkdirSync(subset);
    for (const file of readdirSync(SAMPLE_PROFILES).slice(1))
      cpSync(path.join(SAMPLE_PROFILES, file), path.join(subset, file));
    const second = await state.build(subset);
    // The commands in this process (their `run`, what their doors run: catalog-sync.test.ts and
    // publish-cli.test.ts run those as processes), beside the server, over its state.
    const published = await state.publishInProcess(second.releaseDir);
    expect(published.code, published.stderr).toBe(0);
    expect(await servedRelease(second.manifest.release_id)).toBe(second.manifest.release_id);

    const rolledBack = await runInProcess(catalogRollback.run, [
      "--release-id",
      first.manifest.release_id,
      "--persist-to",
      state.persistTo,
    ]);
    expect(rolledBack.code, rolledBack.stderr).toBe(0);
    expect(rolledBack.stdout).toContain(`rolled back local production`);
    expect(await servedRelease(first.manifest.release_id)).toBe(first.manifest.release_id);
  });

  // Last: it leaves this server's one local address over the limit for 10 s.
  it("a client-supplied CF-Connecting-IP does not evade the invalid-credential throttle; a valid key still passes", async () => {
    let status = 0;
    for (let i = 0; i < 61 && status !== 429; i++) {
      const spoofed = { Authorization: "Bearer sk_live_not-a-key", "CF-Connecting-IP": `198.51.100.${i}` };
      status = (await e2eFetch(server.url, "/v2/cheeses", { headers: spoofed })).status;
    }
    expect(status).toBe(429);
    expect((await e2eFetch(server.url, "/v2/cheeses", { headers: { "CF-Connecting-IP": "203.0.113.7" } })).status).toBe(
      200,
    );
  });
});

describe("CORS from a page on another origin, in Chromium (issue 24, item 10)", () => {
  let page: Server;
  let pageUrl: string;

  beforeAll(async () => {
    // An empty page on another port of 127.0.0.1: another origin than wrangler dev's.
    page = createServer((_, res) =>
      res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>app</title>"),
    );
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    await new Promise((resolve) => page?.close(resolve));
  });

  it("a script reads the catalog with a bearer key and a Range, and the headers it needs", async () => {
    expect(new URL(pageUrl).origin).not.toBe(new URL(server.url).origin);
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      await tab.goto(pageUrl);
      const seen = await tab.evaluate(
        async ({ api, key }) => {
          const names = ["catalog-release", "content-digest", "repr-digest", "content-location", "etag", "request-id"];
          const headersOf = (res: Response) => Object.fromEntries(names.map((name) => [name, res.headers.get(name)]));
          const whole = await fetch(`${api}/v1/catalog`, { headers: { Authorization: `Bearer ${key}` } });
          const range = await fetch(`${api}/v1/catalog`, {
            headers: { Authorization: `Bearer ${key}`, Range: "bytes=0-15" },
          });
          const anonymous = await fetch(`${api}/v1/catalog`);
          return {
            whole: { status: whole.status, headers: headersOf(whole), bytes: (await whole.arrayBuffer()).byteLength },
            range: { status: range.status, text: await range.text(), rateLimit: range.headers.get("ratelimit") },
            anonymous: { status: anonymous.status, code: ((await anonymous.json()) as { code: string }).code },
          };
        },
        { api: server.url.replace(/\/$/, ""), key: provisionedApiKey(server.url) },
      );
      expect(seen.whole.status).toBe(200);
      expect(seen.whole.bytes).toBe(first.manifest.bytes);
      expect(seen.whole.headers).toMatchObject({
        "catalog-release": first.manifest.release_id,
        "content-location": `/v1/releases/${first.manifest.release_id}/catalog`,
        etag: `"${first.manifest.release_id}"`,
      });
      for (const name of ["content-digest", "repr-digest", "request-id"])
        expect(seen.whole.headers[name], name).toBeTruthy();
      expect(seen.range).toMatchObject({ status: 206, text: first.document.subarray(0, 16).toString("utf8") });
      expect(seen.range.rateLimit).toMatch(/^"default";r=\d+/);
      expect(seen.anonymous).toEqual({ status: 401, code: "unauthenticated" });
    } finally {
      await browser.close();
    }
  });
});
