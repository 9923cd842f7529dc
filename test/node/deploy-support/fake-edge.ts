/**
 * The fake Cloudflare's edge: each worker's deployed version runs in workerd (Miniflare) with the
 * modules and bindings of its upload, behind a stable local URL that stands in for its workers.dev
 * address. Storage persists across versions, as on Cloudflare. All workers share one storage
 * directory, each KV namespace, bucket and D1 database in it by its own id or name, so the fake API's
 * D1 queries (fake-d1.ts) reach the database a worker's binding of that id reads.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { convertV4MiniflareOptions, Miniflare, NoOpLog } from "miniflare";

export interface UploadedVersion {
  id: string;
  main: string;
  modules: Map<string, { type: string; content: Uint8Array }>;
  bindings: { type: string; name: string; [field: string]: unknown }[];
  secrets: Record<string, string>;
  compatibilityDate?: string;
  compatibilityFlags: string[];
  sqliteClasses: string[];
  /** Static assets by path (with its leading /), served by the `assets` binding. */
  assets?: Map<string, { content: Uint8Array; type: string }>;
}

const MODULE_TYPES: Record<string, string> = {
  "application/javascript+module": "ESModule",
  "application/javascript": "CommonJS",
  "text/javascript": "CommonJS",
  "application/wasm": "CompiledWasm",
  "text/plain": "Text",
  "application/octet-stream": "Data",
};

export class FakeEdge {
  /** What the running workers logged (console.log and friends), one entry per line, like `wrangler tail` shows. */
  readonly logs: string[] = [];
  private readonly running = new Map<string, Miniflare>();
  /** Each D1 database id a running worker binds: that worker and the binding's name. */
  private readonly boundDatabases = new Map<string, { worker: string; binding: string }>();
  /** A workerd of its own for each D1 database no running worker binds yet, kept until one does. */
  private readonly unboundDatabases = new Map<string, Miniflare>();
  private readonly fronts = new Map<string, { server: Server; url: string }>();
  private readonly persistRoot = mkdtempSync(path.join(tmpdir(), "fake-edge-"));
  private readonly statePath = path.join(this.persistRoot, "state");

  /** Replaces the worker's running version with this one. */
  async run(name: string, version: UploadedVersion): Promise<void> {
    const root = path.join(this.persistRoot, name, "modules");
    const modules = [...version.modules].flatMap(([moduleName, { type, content }]) => {
      const kind = MODULE_TYPES[type.replace(/;.*/, "")];
      return kind ? [{ type: kind, path: path.join(root, moduleName), contents: content }] : [];
    });
    const main = modules.findIndex((module) => module.path === path.join(root, version.main));
    // One workerd per database file at a time: the worker's now, not the one d1Query ran it in.
    for (const binding of version.bindings) if (binding.type === "d1") await this.releaseUnbound(binding.id as string);
    modules.unshift(...modules.splice(main, 1)); // Miniflare takes the first module as the entry
    const mf = new Miniflare(
      convertV4MiniflareOptions({
        name,
        modules,
        modulesRoot: root,
        compatibilityDate: version.compatibilityDate,
        compatibilityFlags: version.compatibilityFlags,
        resourcePersistencePath: this.statePath,
        log: new NoOpLog(),
        handleStructuredLogs: ({ message }: { message: string }) => this.logs.push(message),
        ...bindingsOf(version, path.join(this.persistRoot, name, `assets-${version.id}`)),
      } as never),
    );
    await mf.ready;
    const previous = this.running.get(name);
    this.running.set(name, mf);
    for (const binding of version.bindings)
      if (binding.type === "d1") this.boundDatabases.set(binding.id as string, { worker: name, binding: binding.name });
    await previous?.dispose();
  }

  /** The deployed worker's catalog storage, to publish a release into as `catalog:publish --remote` would. */
  async catalogStorage(name: string) {
    const mf = this.running.get(name);
    if (!mf) throw new Error(`fake edge: ${name} is not deployed`);
    return {
      kv: await mf.getKVNamespace("CATALOG_KV"),
      bucket: await mf.getR2Bucket("RELEASES"),
      db: await mf.getD1Database("CATALOG_DB"),
    };
  }

  /**
   * Runs SQL on the D1 database of this id, as the API's `/query` does: its statements in one
   * batch (a transaction), the last one's rows returned. Through the running worker that binds the
   * database; before any worker binds it (a first deploy's migrations), in a workerd of its own on
   * the shared storage, started once and stopped when a worker binds the database.
   */
  async d1Query(
    databaseId: string,
    sql: string,
    params: unknown[],
  ): Promise<{ results: unknown[]; meta: Record<string, unknown> & { changed_db: boolean } }> {
    const bound = this.boundDatabases.get(databaseId);
    const worker = bound && this.running.get(bound.worker);
    if (bound && worker) return runD1Query(await worker.getD1Database(bound.binding), sql, params);
    let own = this.unboundDatabases.get(databaseId);
    if (!own) {
      own = new Miniflare(
        convertV4MiniflareOptions({
          name: "fake-d1-api",
          modules: true,
          script: "export default { fetch: () => new Response(null, { status: 404 }) };",
          d1Databases: { DB: databaseId },
          resourcePersistencePath: this.statePath,
          log: new NoOpLog(),
        } as never),
      );
      this.unboundDatabases.set(databaseId, own);
    }
    return runD1Query(await own.getD1Database("DB"), sql, params);
  }

  private async releaseUnbound(databaseId: string): Promise<void> {
    const own = this.unboundDatabases.get(databaseId);
    this.unboundDatabases.delete(databaseId);
    await own?.dispose();
  }

  /** The worker's stable local URL (what its workers.dev address would be); 404 until deployed. */
  async urlOf(name: string): Promise<string> {
    const existing = this.fronts.get(name);
    if (existing) return existing.url;
    const server = createServer(async (req, res) => {
      const mf = this.running.get(name);
      if (!mf) return void res.writeHead(404).end("There is nothing here yet");
      const body = req.method === "GET" || req.method === "HEAD" ? undefined : (Readable.toWeb(req) as ReadableStream);
      const headers = Object.entries(req.headers).flatMap(([key, value]) =>
        typeof value === "string" ? [[key, value] as [string, string]] : [],
      );
      const response = await mf.dispatchFetch(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers,
        body,
        redirect: "manual",
        duplex: "half",
      } as never);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body && req.method !== "HEAD")
        for await (const chunk of response.body as AsyncIterable<Uint8Array>) res.write(chunk);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    this.fronts.set(name, { server, url });
    return url;
  }

  async dispose(): Promise<void> {
    for (const { server } of this.fronts.values()) {
      server.closeAllConnections();
      server.close();
    }
    await Promise.all([...this.running.values(), ...this.unboundDatabases.values()].map((mf) => mf.dispose()));
    rmSync(this.persistRoot, { recursive: true, force: true });
  }
}

type D1 = Awaited<ReturnType<Miniflare["getD1Database"]>>;

/** The statements of `sql` in one batch (a transaction), as D1's `/query` runs them; the last one's rows. */
async function runD1Query(db: D1, sql: string, params: unknown[]) {
  const statements = splitStatements(sql);
  const results =
    statements.length === 1
      ? [
          await db
            .prepare(sql)
            .bind(...params)
            .all(),
        ]
      : await db.batch(statements.map((statement) => db.prepare(statement)));
  const last = results.at(-1);
  const changed = results.some((result) => (result.meta as { changed_db?: boolean }).changed_db === true);
  return { results: last?.results ?? [], meta: { ...(last?.meta ?? {}), changed_db: changed } };
}

/** The upload's bindings (Workers script-upload metadata) as Miniflare options. */
function bindingsOf(version: UploadedVersion, assetsDirectory: string) {
  const options = {
    assets: undefined as { directory: string; binding: string; routerConfig: { has_user_worker: boolean } } | undefined,
    kvNamespaces: {} as Record<string, string>,
    r2Buckets: {} as Record<string, string>,
    d1Databases: {} as Record<string, string>,
    durableObjects: {} as Record<string, { className: string; useSQLite: boolean }>,
    ratelimits: {} as Record<string, unknown>,
    // Producers only: the fake edge runs no consumer (what the worker enqueues stays in the queue).
    queueProducers: {} as Record<string, string>,
    bindings: { ...version.secrets } as Record<string, unknown>,
  };
  for (const binding of version.bindings) {
    const { type, name } = binding;
    if (type === "kv_namespace") options.kvNamespaces[name] = binding.namespace_id as string;
    else if (type === "r2_bucket") options.r2Buckets[name] = binding.bucket_name as string;
    else if (type === "d1") options.d1Databases[name] = binding.id as string;
    else if (type === "durable_object_namespace") {
      const className = binding.class_name as string;
      options.durableObjects[name] = { className, useSQLite: version.sqliteClasses.includes(className) };
    } else if (type === "ratelimit")
      options.ratelimits[name] = { namespace_id: binding.namespace_id, simple: binding.simple };
    else if (type === "queue") options.queueProducers[name] = binding.queue_name as string;
    else if (type === "plain_text") options.bindings[name] = binding.text;
    else if (type === "json") options.bindings[name] = binding.json;
    else if (type === "assets") {
      // A request no asset matches goes on to the worker, as on Cloudflare.
      options.assets = {
        directory: writeAssets(version, assetsDirectory),
        binding: name,
        routerConfig: { has_user_worker: true },
      };
    } else throw new Error(`fake edge: no local stand-in for a ${type} binding (${name})`);
  }
  return options;
}

/** The version's uploaded assets as files, for Miniflare's assets option. */
function writeAssets(version: UploadedVersion, directory: string): string {
  if (!version.assets) throw new Error("fake edge: an assets binding without uploaded assets");
  for (const [file, { content }] of version.assets) {
    const target = path.join(directory, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  return directory;
}

/** The SQL text's statements, split at each `;` that ends a line; comment-only pieces dropped. */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;[ \t]*(?:\r?\n|$)/)
    .map((piece) => piece.trim())
    .filter((piece) => piece.replace(/^\s*--.*$/gm, "").trim() !== "");
}
