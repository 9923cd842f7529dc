/**
 * What the serve, query, client and sync modules share over one bench run: the persisted state
 * they publish into (its bindings opened once, not once per publish: each opening starts a workerd)
 * and the `wrangler dev` servers over it, each started on first use and kept for the next module
 * (a start is seconds, tens of seconds on a loaded machine). run.ts closes it after the last module.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { setTimeout } from "node:timers/promises";
import path from "node:path";
import { CURRENT_POINTER_TTL_MS } from "../src/common/catalog/store";
import { publishRelease, type PublishResult, rollbackRelease } from "../src/node/catalog/publish";
import { openReleaseDir } from "../src/node/catalog/release-dir";
import { openDeploymentStorage, type DeploymentStorage } from "../src/node/local/deployment-storage";
import { startBenchServer, type BenchServer, type ServerKind } from "./bench-servers";
import { benchStateDir, type BuiltRelease } from "./served-releases";

/** The real worker and the limiter switch share the state's Durable Objects: never both at once. */
const EXCLUSIVE: Partial<Record<ServerKind, ServerKind>> = { catalog: "limiter-switch", "limiter-switch": "catalog" };

export class BenchRig {
  readonly persistTo: string;
  private readonly scratch = mkdtempSync(path.join(tmpdir(), "bench-rig-"));
  private readonly servers = new Map<ServerKind, BenchServer>();
  private state: Promise<DeploymentStorage> | undefined;

  constructor(
    dataDir: string,
    private readonly log: (line: string) => void,
  ) {
    this.persistTo = benchStateDir(dataDir);
  }

  /** The running server of this kind, started now if none is. */
  async server(kind: ServerKind): Promise<BenchServer> {
    const running = this.servers.get(kind);
    if (running) return running;
    const other = EXCLUSIVE[kind];
    if (other) await this.stop(other);
    this.log(`starting wrangler dev (${kind})`);
    const server = await startBenchServer(kind, this.persistTo, this.scratch);
    this.servers.set(kind, server);
    return server;
  }

  async stop(kind: ServerKind): Promise<void> {
    const server = this.servers.get(kind);
    this.servers.delete(kind);
    await server?.stop();
  }

  /**
   * Makes `release` current in the state, publishing it if needed. A running worker keeps the
   * pointer it read for CURRENT_POINTER_TTL_MS: after a flip under a running server, this waits
   * that long (and a little), so the next request is served the new release.
   */
  async makeCurrent(release: BuiltRelease): Promise<PublishResult> {
    // Opening the bindings also applies the D1 migrations, as `catalog:publish` does.
    this.state ??= openDeploymentStorage({ persistTo: this.persistTo });
    const result = await publishRelease((await this.state).storage, openReleaseDir(release.dir));
    this.log(
      `${result.release_id} current (${result.parts_uploaded} of ${result.parts} parts uploaded; ` +
        `${result.query_rows_loaded} query rows loaded in ${(result.query_load_ms / 1000).toFixed(1)} s)`,
    );
    const served = this.servers.has("catalog") || this.servers.has("limiter-switch");
    if (result.pointer_flipped && served) await setTimeout(CURRENT_POINTER_TTL_MS + 100);
    return result;
  }

  /**
   * Makes the kept release `releaseId` current again (catalog:rollback): an event of the release
   * history with its history rows, no upload and no query load. Does not wait out a running
   * worker's pointer cache: call `settle()` after the last one.
   */
  async rollBackTo(releaseId: string): Promise<void> {
    await rollbackRelease(await this.storage(), releaseId);
  }

  /** Waits until a running worker serves the pointer last written (CURRENT_POINTER_TTL_MS). */
  settle(): Promise<void> {
    return setTimeout(CURRENT_POINTER_TTL_MS + 100);
  }

  /** The deployment's bindings as the publish engine uses them (D1 included), opened once. */
  async storage(): Promise<DeploymentStorage["storage"]> {
    this.state ??= openDeploymentStorage({ persistTo: this.persistTo });
    return (await this.state).storage;
  }

  /** The last lines each running server printed: usually why a measurement failed. */
  serverLogs(): string {
    return [...this.servers.values()]
      .map((server) => `--- wrangler dev ${server.url} ---\n${server.log().slice(-4000)}`)
      .join("\n");
  }

  async close(): Promise<void> {
    await Promise.all([...this.servers.values()].map((server) => server.stop()));
    this.servers.clear();
    await (await this.state?.catch(() => undefined))?.dispose();
    rmSync(this.scratch, { recursive: true, force: true });
  }
}
