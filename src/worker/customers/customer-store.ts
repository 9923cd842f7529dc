/**
 * The customer profile's SQLite table in the account's Durable Object (AccountObject): one row,
 * made from the account's name and email on first read. `version` grows by one per change and is
 * the profile's ETag, so a change based on a stale read is refused, never lost.
 */
import { z } from "@hono/zod-openapi";
import { randomBase62 } from "../../common/auth/checksum";
import { parseStoredJson } from "../http/stored-json";
import { Address, type CustomerFields, type CustomerView, Preferences } from "./schemas";

export interface CustomerRecord {
  customer: CustomerView;
  version: number;
}

interface CustomerRow {
  id: string;
  fields: string;
  version: number;
  created_at: string;
  updated_at: string;
}

const SCHEMA = `CREATE TABLE IF NOT EXISTS customer (
  id TEXT PRIMARY KEY, fields TEXT NOT NULL, version INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL
);`;

export const newCustomerId = () => `cus_${randomBase62(20)}`;

/**
 * The stored fields' shape, not their rules: the first profile takes the account's name and email
 * as they are, so reading never fails on an account made under other rules; the next change is
 * checked whole (PATCH and the dashboard ask for a fix of whatever does not pass).
 */
const StoredFields = z.object({
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  shipping_address: Address.nullable(),
  preferences: Preferences,
});

/** What the first profile is made from: the account's name, email and creation time. */
export type Owner = { name: string; email: string; created_at: string };

const initialFields = (owner: Owner): CustomerFields => ({
  name: owner.name,
  email: owner.email,
  phone: null,
  shipping_address: null,
  preferences: { marketing_emails: false, language: "en" },
});

export class CustomerStore {
  constructor(
    private readonly sql: SqlStorage,
    private readonly livemode: boolean,
  ) {
    sql.exec(SCHEMA);
  }

  /** The profile; the first read makes it from the account (`owner`). */
  read(owner: Owner): CustomerRecord {
    const row = this.#row() ?? this.#create(owner);
    const fields = parseStoredJson(row.fields, StoredFields, "customer profile") ?? initialFields(owner);
    return {
      version: row.version,
      customer: {
        id: row.id,
        object: "customer",
        ...fields,
        created_at: row.created_at,
        updated_at: row.updated_at,
        livemode: this.livemode,
      },
    };
  }

  /** Replaces the fields if the profile is still at `expectedVersion`; false when it moved on. */
  replace(fields: CustomerFields, expectedVersion: number): boolean {
    const { rowsWritten } = this.sql.exec(
      "UPDATE customer SET fields = ?, version = version + 1, updated_at = ? WHERE version = ?",
      JSON.stringify(fields),
      new Date().toISOString(),
      expectedVersion,
    );
    return rowsWritten > 0;
  }

  #row(): CustomerRow | undefined {
    return this.sql.exec<CustomerRow & Record<string, SqlStorageValue>>("SELECT * FROM customer LIMIT 1").toArray()[0];
  }

  #create(owner: Owner): CustomerRow {
    const row: CustomerRow = {
      id: newCustomerId(),
      fields: JSON.stringify(initialFields(owner)),
      version: 1,
      created_at: owner.created_at,
      updated_at: owner.created_at,
    };
    this.sql.exec(
      "INSERT INTO customer (id, fields, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
      row.id,
      row.fields,
      row.version,
      row.created_at,
      row.updated_at,
    );
    return row;
  }
}
