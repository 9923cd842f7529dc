/**
 * The state and routes of one account of the fake Cloudflare API (see fake-cloudflare.ts): KV
 * namespaces, R2 buckets, D1 databases (fake-d1.ts), queues (fake-queues.ts), the workers.dev subdomain, workers (fake-workers.ts) and their static
 * assets (fake-assets.ts), each route
 * guarded by the API token permission the API documents for it.
 */
import { expectDefined } from "../../../src/common/expect";
import { FakeAssets } from "./fake-assets";
import { FakeD1 } from "./fake-d1";
import { FakeQueues } from "./fake-queues";
import { FakeWorkers } from "./fake-workers";
import { fail, ok, page, type Reply, type Route } from "./fake-reply";

export const ALL_PERMISSIONS = [
  "Account Settings: Read",
  "Workers KV Storage: Edit",
  "Workers R2 Storage: Edit",
  "Workers Scripts: Edit",
  "Queues: Edit",
  "D1: Edit",
];

export class FakeAccount {
  /** What the fake token may do; tests take permissions away to see the refusal. */
  readonly permissions = new Set(ALL_PERMISSIONS);
  readonly kvNamespaces = new Map<string, { id: string; title: string }>();
  readonly buckets = new Map<string, { name: string; creation_date: string; location: string }>();
  subdomain: string | null = "fake-subdomain";
  readonly assets = new FakeAssets();
  readonly queues = new FakeQueues();
  readonly workers: FakeWorkers;
  readonly d1: FakeD1;
  private readonly routes: Route[];

  constructor(readonly id: string) {
    this.workers = new FakeWorkers(this.assets);
    this.d1 = new FakeD1(this.workers.edge);
    const account = `^/accounts/${id}`;
    this.routes = [
      {
        method: "GET",
        pattern: /^\/user\/tokens\/verify$/,
        handle: () => ok({ id: "fake-token-id", status: "active" }),
      },
      {
        method: "GET",
        pattern: /^\/accounts$/,
        permission: "Account Settings: Read",
        handle: () => ok([{ id, name: "Fake account" }], page(1, 1)),
      },
      {
        method: "GET",
        pattern: new RegExp(`${account}/storage/kv/namespaces$`),
        permission: "Workers KV Storage: Read",
        handle: (_m, url) => this.listKv(url),
      },
      {
        method: "POST",
        pattern: new RegExp(`${account}/storage/kv/namespaces$`),
        permission: "Workers KV Storage: Edit",
        handle: (_m, _u, req) => this.createKv(req),
      },
      {
        method: "GET",
        pattern: new RegExp(`${account}/r2/buckets/([\\w-]+)$`),
        permission: "Workers R2 Storage: Read",
        handle: ([, name]) => this.getBucket(expectDefined(name, "a bucket name")),
      },
      {
        method: "POST",
        pattern: new RegExp(`${account}/r2/buckets$`),
        permission: "Workers R2 Storage: Edit",
        handle: (_m, _u, req) => this.createBucket(req),
      },
      {
        method: "GET",
        pattern: new RegExp(`${account}/workers/subdomain$`),
        permission: "Workers Scripts: Read",
        handle: () => this.getSubdomain(),
      },
      ...this.queues.routes(account),
      ...this.d1.routes(account),
      ...this.workers.routes(account),
      ...this.assets.routes(account),
    ];
  }

  async route(method: string, path: string, url: URL, request: Request): Promise<Reply> {
    for (const route of this.routes) {
      const match = route.method === method ? route.pattern.exec(path) : null;
      if (!match) continue;
      if (route.permission && !this.allows(route.permission)) return fail(403, 10000, "Authentication error");
      return route.handle([...match], url, request);
    }
    return fail(404, 7003, "No route for that URI");
  }

  dispose(): Promise<void> {
    return this.workers.dispose();
  }

  private allows(permission: string): boolean {
    return this.permissions.has(permission) || this.permissions.has(permission.replace(/: Read$/, ": Edit"));
  }

  private listKv(url: URL): Reply {
    const perPage = Number(url.searchParams.get("per_page") ?? 20);
    const pageNumber = Number(url.searchParams.get("page") ?? 1);
    const all = [...this.kvNamespaces.values()];
    return ok(all.slice((pageNumber - 1) * perPage, pageNumber * perPage), page(pageNumber, perPage, all.length));
  }

  private async createKv(request: Request): Promise<Reply> {
    const { title } = (await request.json()) as { title?: string };
    if (!title) return fail(400, 10019, "title is required");
    if ([...this.kvNamespaces.values()].some((ns) => ns.title === title))
      return fail(400, 10014, "A namespace with this account ID and title already exists.");
    const namespace = { id: crypto.randomUUID().replaceAll("-", ""), title };
    this.kvNamespaces.set(namespace.id, namespace);
    return ok({ ...namespace, supports_url_encoding: true });
  }

  private getBucket(name: string): Reply {
    const bucket = this.buckets.get(name);
    return bucket ? ok(bucket) : fail(404, 10006, "The specified bucket does not exist.");
  }

  private async createBucket(request: Request): Promise<Reply> {
    const { name } = (await request.json()) as { name?: string };
    if (!name || !/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(name))
      return fail(400, 10005, "The specified bucket name is not valid.");
    if (this.buckets.has(name))
      return fail(409, 10004, "The bucket you tried to create already exists, and you own it.");
    const bucket = { name, creation_date: new Date().toISOString(), location: "ENAM" };
    this.buckets.set(name, bucket);
    return ok(bucket);
  }

  private getSubdomain(): Reply {
    return this.subdomain ? ok({ subdomain: this.subdomain }) : fail(404, 10007, "workers.api.error.no_subdomain");
  }
}
