/**
 * D1 in the fake Cloudflare API (see fake-cloudflare.ts): list and create databases, look one up by
 * id or name, and run SQL on one (`POST /d1/database/:id/query`, what `wrangler d1 migrations apply
 * --remote` and `wrangler d1 execute --remote` send). The SQL runs in workerd on the storage the
 * fake edge gives a worker's D1 binding of that id (fake-edge.ts), so the deployed worker sees the
 * tables the migrations made.
 */
import type { FakeEdge } from "./fake-edge";
import { fail, ok, page, type Reply, type Route } from "./fake-reply";

interface Database {
  uuid: string;
  name: string;
  created_at: string;
  version: "production";
  num_tables: number;
  file_size: number;
}

export class FakeD1 {
  readonly byId = new Map<string, Database>();

  constructor(private readonly edge: FakeEdge) {}

  routes(account: string): Route[] {
    const database = `${account}/d1/database`;
    return [
      {
        method: "GET",
        pattern: new RegExp(`${database}$`),
        permission: "D1: Read",
        handle: (_m, url) => this.list(url),
      },
      {
        method: "POST",
        pattern: new RegExp(`${database}$`),
        permission: "D1: Edit",
        handle: (_m, _u, request) => this.create(request),
      },
      {
        method: "GET",
        pattern: new RegExp(`${database}/([\\w-]+)$`),
        permission: "D1: Read",
        handle: ([, idOrName]) => this.get(idOrName ?? ""),
      },
      {
        method: "POST",
        pattern: new RegExp(`${database}/([\\w-]+)/query$`),
        permission: "D1: Edit",
        handle: ([, id], _u, request) => this.query(id ?? "", request),
      },
    ];
  }

  names(): string[] {
    return [...this.byId.values()].map((db) => db.name);
  }

  private list(url: URL): Reply {
    const name = url.searchParams.get("name");
    const all = [...this.byId.values()].filter((db) => name === null || db.name === name);
    const perPage = Number(url.searchParams.get("per_page") ?? 100);
    const pageNumber = Number(url.searchParams.get("page") ?? 1);
    return ok(all.slice((pageNumber - 1) * perPage, pageNumber * perPage), page(pageNumber, perPage, all.length));
  }

  private async create(request: Request): Promise<Reply> {
    const { name } = (await request.json()) as { name?: string };
    if (!name || !/^[a-z0-9][a-z0-9-]{0,62}$/.test(name)) return fail(400, 7400, "The database name is not valid");
    if (this.names().includes(name)) return fail(400, 7502, "A database with that name already exists");
    const db: Database = {
      uuid: crypto.randomUUID(),
      name,
      created_at: new Date().toISOString(),
      version: "production",
      num_tables: 0,
      file_size: 0,
    };
    this.byId.set(db.uuid, db);
    return ok(db);
  }

  private get(idOrName: string): Reply {
    const db = this.byId.get(idOrName) ?? [...this.byId.values()].find((candidate) => candidate.name === idOrName);
    return db ? ok(db) : fail(404, 7404, "The database could not be found");
  }

  /** The API's answer: one result per statement; the fake gives one for the whole text. */
  private async query(id: string, request: Request): Promise<Reply> {
    if (!this.byId.has(id)) return fail(404, 7404, "The database could not be found");
    const { sql, params } = (await request.json()) as { sql?: string; params?: unknown[] };
    if (!sql) return fail(400, 7400, "sql is required");
    try {
      const result = await this.edge.d1Query(id, sql, params ?? []);
      return {
        ...ok([{ results: result.results, success: true, meta: result.meta }]),
        readOnly: !result.meta.changed_db,
      };
    } catch (error) {
      return fail(400, 7500, `${error instanceof Error ? error.message : String(error)}: SQLITE_ERROR`);
    }
  }
}
