/**
 * Workers of the fake Cloudflare API (see fake-cloudflare.ts): uploads (fake-upload.ts), versions,
 * deployments, secrets, Durable Object migration tags and the workers.dev switch. The deployed
 * version also runs in workerd (fake-edge.ts), so the deploy's smoke test calls a real worker.
 */
import { expectDefined } from "../../../src/common/expect";
import { FakeEdge } from "./fake-edge";
import { fail, ok, type Reply } from "./fake-reply";
import type { FakeAssets } from "./fake-assets";
import { UploadRefused, versionOf, type Binding, type Version } from "./fake-upload";

interface Script {
  name: string;
  created_on: string;
  modified_on: string;
  versions: Version[];
  deployments: {
    id: string;
    created_on: string;
    source: string;
    strategy: string;
    versions: { version_id: string; percentage: number }[];
  }[];
  workersDev: boolean;
  tags: string[];
}

type Handler = (found: Script, match: string[], request: Request) => Reply | Promise<Reply>;

export class FakeWorkers {
  readonly scripts = new Map<string, Script>();
  readonly edge = new FakeEdge();

  constructor(private readonly assets: FakeAssets) {}

  routes(account: string) {
    const script = (suffix = "") => new RegExp(`${account}/workers/scripts/([\\w-]+)${suffix}$`);
    const [read, edit] = ["Workers Scripts: Read", "Workers Scripts: Edit"];
    const withScript = (handler: Handler) => (match: string[], _url: URL, request: Request) => {
      const found = this.scripts.get(expectDefined(match[1], "a worker name"));
      return found ? handler(found, match, request) : fail(404, 10007, "workers.api.error.script_not_found");
    };
    return [
      {
        method: "GET",
        pattern: new RegExp(`${account}/workers/services/([\\w-]+)$`),
        permission: read,
        handle: ([, name]: string[]) => this.service(expectDefined(name, "a worker name")),
      },
      {
        method: "GET",
        pattern: new RegExp(`${account}/workers/workers/([\\w-]+)$`),
        permission: read,
        handle: withScript((found) =>
          ok({ id: found.name, name: found.name, subdomain: { enabled: found.workersDev, previews_enabled: false } }),
        ),
      },
      {
        method: "PUT",
        pattern: script(),
        permission: edit,
        handle: ([, name]: string[], _url: URL, request: Request) =>
          this.upload(expectDefined(name, "a worker name"), request),
      },
      {
        method: "POST",
        pattern: script("/versions"),
        permission: edit,
        handle: withScript((found, _m, request) => this.addVersion(found, request)),
      },
      {
        method: "POST",
        pattern: script("/deployments"),
        permission: edit,
        handle: withScript((found, _m, request) => this.deploy(found, request)),
      },
      {
        method: "GET",
        pattern: script("/deployments"),
        permission: read,
        handle: withScript((found) => ok({ deployments: [...found.deployments].reverse() })),
      },
      {
        method: "GET",
        pattern: script("/versions/([\\w-]+)"),
        permission: read,
        handle: withScript((found, match) => this.version(found, expectDefined(match[2], "a version id"))),
      },
      {
        method: "GET",
        pattern: script("/settings"),
        permission: read,
        handle: withScript((found) => ok(settingsOf(current(found)))),
      },
      {
        method: "PATCH",
        pattern: script("/script-settings"),
        permission: edit,
        handle: withScript(async (_found, _m, request) => ok({ ...(await request.json()) })),
      },
      {
        method: "GET",
        pattern: script("/secrets"),
        permission: read,
        handle: withScript((found) =>
          ok(Object.keys(current(found)?.secrets ?? {}).map((name) => ({ name, type: "secret_text" }))),
        ),
      },
      {
        method: "GET",
        pattern: script("/subdomain"),
        permission: read,
        handle: withScript((found) => ok({ enabled: found.workersDev, previews_enabled: false })),
      },
      {
        method: "POST",
        pattern: script("/subdomain"),
        permission: edit,
        handle: withScript(async (found, _m, request) => this.setSubdomain(found, request)),
      },
    ];
  }

  dispose(): Promise<void> {
    return this.edge.dispose();
  }

  private service(name: string): Reply {
    const found = this.scripts.get(name);
    if (!found) return fail(404, 10090, "workers.api.error.service_not_found");
    const script = {
      id: name,
      tag: `tag-${name}`,
      tags: found.tags,
      migration_tag: current(found)?.migrationTag,
      last_deployed_from: "wrangler",
      created_on: found.created_on,
      modified_on: found.modified_on,
    };
    return ok({ id: name, default_environment: { environment: "production", script } });
  }

  private version(found: Script, id: string): Reply {
    const version = found.versions.find((candidate) => candidate.id === id);
    if (!version) return fail(404, 10220, "version not found");
    return ok({
      id,
      number: version.number,
      annotations: version.annotations,
      metadata: { created_on: version.created_on, source: "wrangler" },
      resources: { bindings: version.bindings },
    });
  }

  private async setSubdomain(found: Script, request: Request): Promise<Reply> {
    found.workersDev = ((await request.json()) as { enabled: boolean }).enabled;
    return ok({ enabled: found.workersDev, previews_enabled: false });
  }

  /** PUT /workers/scripts/:name: a new version, deployed at once to 100% (a first deploy, or one with migrations). */
  private async upload(name: string, request: Request): Promise<Reply> {
    const now = new Date().toISOString();
    const found = this.scripts.get(name) ?? {
      name,
      created_on: now,
      modified_on: now,
      versions: [],
      deployments: [],
      workersDev: false,
      tags: [],
    };
    const reply = await this.addVersion(found, request);
    if (reply.status >= 400) return reply;
    this.scripts.set(name, found);
    const version = expectDefined(found.versions.at(-1), "the uploaded version");
    await this.deployVersion(found, version);
    return ok({
      id: name,
      etag: version.id,
      deployment_id: version.id,
      startup_time_ms: 1,
      created_on: found.created_on,
      modified_on: found.modified_on,
    });
  }

  /** POST /workers/scripts/:name/versions: a new version, not deployed yet. */
  private async addVersion(found: Script, request: Request): Promise<Reply> {
    try {
      const version = await versionOf(request, previousOf(current(found)), this.assets);
      found.versions.push(version);
      return ok({
        id: version.id,
        number: version.number,
        resources: { script: { etag: version.id } },
        startup_time_ms: 1,
      });
    } catch (error) {
      if (error instanceof UploadRefused) return fail(400, error.code, error.message);
      throw error;
    }
  }

  /** POST /workers/scripts/:name/deployments: one version at 100% (the fake has no gradual split). */
  private async deploy(found: Script, request: Request): Promise<Reply> {
    const { versions } = (await request.json()) as { versions: { version_id: string; percentage: number }[] };
    const version = found.versions.find((candidate) => candidate.id === versions[0]?.version_id);
    if (!version || versions.length !== 1 || versions[0]?.percentage !== 100)
      return fail(400, 10200, "the fake deploys exactly one known version at 100%");
    return ok(await this.deployVersion(found, version));
  }

  private async deployVersion(found: Script, version: Version) {
    const deployment = {
      id: crypto.randomUUID(),
      created_on: new Date().toISOString(),
      source: "wrangler",
      strategy: "percentage",
      versions: [{ version_id: version.id, percentage: 100 }],
    };
    found.deployments.push(deployment);
    found.modified_on = deployment.created_on;
    await this.edge.run(found.name, version);
    return deployment;
  }
}

/** The version serving 100% of the latest deployment. */
function current(found: Script): Version | undefined {
  const id = found.deployments.at(-1)?.versions[0]?.version_id;
  return found.versions.find((version) => version.id === id);
}

function previousOf(version: Version | undefined) {
  return (
    version && {
      secrets: new Map(Object.entries(version.secrets)),
      bindings: version.bindings,
      migrationTag: version.migrationTag,
      sqliteClasses: version.sqliteClasses,
      number: version.number,
      assets: version.assets,
    }
  );
}

function settingsOf(version: Version | undefined): { bindings: Binding[]; observability?: unknown } {
  const secrets = Object.keys(version?.secrets ?? {}).map((name) => ({ type: "secret_text", name }));
  return { bindings: [...(version?.bindings ?? []), ...secrets], observability: version?.observability };
}
