/**
 * The bundle of one deployment, built offline by `wrangler deploy --dry-run --outdir`, and the two
 * checks on it: its compressed size against our budget, and that its global scope does no I/O.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { Deployment } from "./deployments";
import { type Environment, wrangler } from "./wrangler-cli";

/**
 * Cloudflare refuses a worker over 3 MiB compressed on the Free plan (10 MiB on Paid). Start-up
 * time grows with the script, so we keep far below: 768 KiB, half again today's bundle (525 KiB,
 * of which zod, the OAuth provider, ajv and the MCP SDK are over half).
 */
export const BUNDLE_BUDGET_BYTES = 768 * 1024;

export interface Bundle {
  dir: string;
  main: string;
  /** Uploaded modules (source maps are not counted: they do not run). */
  files: { name: string; bytes: number; gzipBytes: number }[];
  gzipBytes: number;
}

/** `env`: added to wrangler's environment. */
export async function buildBundle(
  deployment: Deployment,
  configPath: string,
  outDir: string,
  env: Environment = {},
): Promise<Bundle> {
  const args = ["deploy", "--dry-run", "--config", configPath, "--env", deployment.wranglerEnv, "--outdir", outDir];
  await wrangler(args, { env });
  const files = readdirSync(outDir)
    .filter((name) => !name.endsWith(".map") && name !== "README.md")
    .map((name) => {
      const content = readFileSync(path.join(outDir, name));
      return { name, bytes: content.length, gzipBytes: gzipSync(content).length };
    });
  const main = files.find((file) => /\.m?js$/.test(file.name));
  if (!main) throw new Error(`wrangler built no JavaScript module into ${outDir}`);
  return {
    dir: outDir,
    main: path.join(outDir, main.name),
    files,
    gzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0),
  };
}

export function checkBudget(deployment: Deployment, bundle: Bundle, budget = BUNDLE_BUDGET_BYTES): string[] {
  if (bundle.gzipBytes <= budget) return [];
  return [
    `${deployment.name}: the bundle is ${kib(bundle.gzipBytes)} compressed, over the ${kib(budget)} budget (Cloudflare's own limit is 3 MiB on the Free plan)`,
  ];
}

/**
 * Loads the built bundle in a fresh workerd (Miniflare) with the deployment's bindings and sends it
 * no request: evaluating the global scope is all that runs. workerd refuses I/O, timers and random
 * values there ("Disallowed operation called within global scope"), as Cloudflare's upload does.
 */
export async function checkGlobalScope(deployment: Deployment, bundle: Bundle): Promise<string[]> {
  const { Miniflare, NoOpLog, convertV4MiniflareOptions } = await import("miniflare");
  const worker = { ...localBindings(deployment), rootPath: bundle.dir, scriptPath: bundle.main, modules: true };
  // Quiet: workerd's own message is part of the error, and is reported once, below.
  const mf = new Miniflare(
    convertV4MiniflareOptions({ ...worker, log: new NoOpLog(), handleStructuredLogs: () => {} }),
  );
  try {
    await mf.ready;
    return [];
  } catch (error) {
    return [`${deployment.name}: the bundle fails to start in workerd: ${startupError(error)}`];
  } finally {
    await mf.dispose().catch(() => undefined);
  }
}

/** The deployment's bindings as local, in-memory Miniflare resources (secrets get a stand-in value). */
function localBindings({ config, secrets }: Deployment) {
  const sqlite = new Set(config.migrations.flatMap((migration) => migration.new_sqlite_classes ?? []));
  return {
    name: config.name,
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
    kvNamespaces: Object.fromEntries(config.kv_namespaces.map((kv) => [kv.binding, kv.preview_id ?? kv.binding])),
    r2Buckets: Object.fromEntries(config.r2_buckets.map((r2) => [r2.binding, r2.bucket_name ?? r2.binding])),
    durableObjects: Object.fromEntries(
      config.durable_objects.bindings.map((d) => [
        d.name,
        { className: d.class_name, useSQLite: sqlite.has(d.class_name) },
      ]),
    ),
    ratelimits: Object.fromEntries(
      config.ratelimits.map((r) => [r.name, { namespace_id: r.namespace_id, simple: r.simple }]),
    ),
    bindings: {
      ...(config.vars as Record<string, string>),
      ...Object.fromEntries(secrets.map((name) => [name, "stand-in"])),
    },
  };
}

/** workerd's own message ("Uncaught Error: Disallowed operation called within global scope…"). */
function startupError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const uncaught = /"message":"([^"]*Uncaught[^"]*)"/.exec(text)?.[1] ?? /Uncaught [^\n]*/.exec(text)?.[0];
  const firstLine = text.replace(/\n[\s\S]*/, "");
  return (uncaught ?? firstLine).replaceAll("\\n", " ");
}

export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
