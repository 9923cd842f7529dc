/**
 * The D1 load's SQLite floor: the same statements in process, on Node's own SQLite (`node:sqlite`),
 * into a file database with the same schema (migrations/ applied as D1 applies them), one
 * transaction per `batch` as D1 runs it. No proxy, no Durable Object: SQLite's own work.
 */
import type { SQLInputValue } from "node:sqlite";
import type { QueryDb, QueryStatement } from "../src/node/catalog/query-load";
import { applyMigrationsInProcess } from "../src/node/local/d1-migrations";

interface SqliteStatement extends QueryStatement {
  sql: string;
  values: SQLInputValue[];
}

export async function openSqliteDb(file: string): Promise<{ db: QueryDb; close(): void }> {
  // Loaded on first use: Node warns that node:sqlite is experimental when it is imported.
  const { DatabaseSync } = await import("node:sqlite");
  const sqlite = new DatabaseSync(file);
  const statement = (sql: string, values: SQLInputValue[]): SqliteStatement => ({
    sql,
    values,
    bind: (...more) => statement(sql, more as SQLInputValue[]),
    first: async <T>() => (sqlite.prepare(sql).get(...values) as T | undefined) ?? null,
  });
  const db = {
    prepare: (sql: string) => ({
      ...statement(sql, []),
      all: async () => ({ results: sqlite.prepare(sql).all() }),
    }),
    batch: async (statements: QueryStatement[]) => {
      sqlite.exec("BEGIN");
      try {
        for (const { sql, values } of statements as SqliteStatement[]) sqlite.prepare(sql).run(...values);
        sqlite.exec("COMMIT");
      } catch (error) {
        sqlite.exec("ROLLBACK");
        throw error;
      }
      return [];
    },
  };
  await applyMigrationsInProcess(db);
  return { db, close: () => sqlite.close() };
}
