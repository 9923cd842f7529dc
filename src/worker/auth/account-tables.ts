/**
 * The SQLite tables of one AccountObject: the account (one row) and its keys. Synchronous calls
 * (Durable Object SQL storage), so a caller can read and write with no await in between.
 * Keys are stored by id with the SHA-256 of the secret (to update the KV index); never the secret.
 */
import { z } from "@hono/zod-openapi";
import { parseStoredJson } from "../http/stored-json";
import type { KeyMode } from "../../common/auth/api-key";
import { ROLES, type Role } from "./account-views";
import { ScopeSchema, type Scope } from "../../common/auth/scopes";

export interface AccountRow {
  id: string;
  name: string;
  email: string;
  roles: string;
  admin_approved: number;
  password: string;
  /** Unused since sign-in attempts are counted per email in the AccountDirectory (kept: existing rows have them). */
  failed_logins: number;
  locked_until: number;
  created_at: string;
}

export interface KeyRow {
  id: string;
  name: string | null;
  mode: KeyMode;
  scopes: string;
  status: "active" | "revoked";
  created_at: string;
  revoked_at: string | null;
  last4: string;
  key_hash: string;
  last_used_at: string | null;
}

const ScopeList = z.array(ScopeSchema);
const RoleList = z.array(z.enum(ROLES));

/** A row's JSON list, checked; a corrupt one reads as empty: no scope, no role, nothing granted. */
export const scopesOf = (row: KeyRow): Scope[] => parseStoredJson(row.scopes, ScopeList, "key scopes") ?? [];
export const rolesOf = (row: AccountRow): Role[] => parseStoredJson(row.roles, RoleList, "account roles") ?? [];

const SCHEMA = `
CREATE TABLE IF NOT EXISTS account (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, roles TEXT NOT NULL,
  admin_approved INTEGER NOT NULL DEFAULT 0, password TEXT NOT NULL,
  failed_logins INTEGER NOT NULL DEFAULT 0, locked_until INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY, name TEXT, mode TEXT NOT NULL, scopes TEXT NOT NULL, status TEXT NOT NULL,
  created_at TEXT NOT NULL, revoked_at TEXT, last4 TEXT NOT NULL, key_hash TEXT NOT NULL, last_used_at TEXT
);`;

export class AccountTables {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(SCHEMA);
  }

  account(): AccountRow | undefined {
    return this.sql.exec<AccountRow & Record<string, SqlStorageValue>>("SELECT * FROM account LIMIT 1").toArray()[0];
  }

  insertAccount(row: {
    id: string;
    name: string;
    email: string;
    roles: Role[];
    password: string;
    created_at: string;
  }): void {
    this.sql.exec(
      "INSERT INTO account (id, name, email, roles, password, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      row.id,
      row.name,
      row.email,
      JSON.stringify(row.roles),
      row.password,
      row.created_at,
    );
  }

  setAdminApproved(approved = true): void {
    this.sql.exec("UPDATE account SET admin_approved = ?", approved ? 1 : 0);
  }

  activeKeyCount(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM api_keys WHERE status = 'active'").one().n;
  }

  keys(): KeyRow[] {
    return this.sql
      .exec<KeyRow & Record<string, SqlStorageValue>>("SELECT * FROM api_keys ORDER BY created_at, id")
      .toArray();
  }

  key(id: string): KeyRow | undefined {
    return this.sql
      .exec<KeyRow & Record<string, SqlStorageValue>>("SELECT * FROM api_keys WHERE id = ?", id)
      .toArray()[0];
  }

  insertKey(row: KeyRow): void {
    this.sql.exec(
      "INSERT INTO api_keys (id, name, mode, scopes, status, created_at, revoked_at, last4, key_hash, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      row.id,
      row.name,
      row.mode,
      row.scopes,
      row.status,
      row.created_at,
      row.revoked_at,
      row.last4,
      row.key_hash,
      row.last_used_at,
    );
  }

  setKeyHash(id: string, keyHash: string): void {
    this.sql.exec("UPDATE api_keys SET key_hash = ? WHERE id = ?", keyHash, id);
  }

  markRevoked(id: string, revokedAt: string, lastUsedAt: string | null): void {
    this.sql.exec(
      "UPDATE api_keys SET status = 'revoked', revoked_at = ?, last_used_at = ? WHERE id = ?",
      revokedAt,
      lastUsedAt,
      id,
    );
  }

  deleteKey(id: string): void {
    this.sql.exec("DELETE FROM api_keys WHERE id = ?", id);
  }
}
