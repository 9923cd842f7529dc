/**
 * The SQLite tables of an account's orders (docs/storage.md "Customers and orders"). Amounts are
 * integer minor units; times are epoch milliseconds, so the keyset (created_ms, id) orders them.
 */
import type { OrderStatus } from "./state-machine";

export interface OrderRow {
  id: string;
  status: OrderStatus;
  /** JSON: the priced lines. */
  items: string;
  amount_total: number;
  currency: string;
  /** JSON: the address the order ships to. */
  shipping_address: string;
  /** JSON: the caller's key-value pairs. */
  metadata: string;
  created_ms: number;
  updated_ms: number;
}

export interface IdempotencyRow {
  /** SHA-256 hex of the Idempotency-Key. */
  key_hash: string;
  /** SHA-256 hex of the canonical JSON of the request's method, path and body. */
  fingerprint: string;
  order_id: string;
  /** The first answer's body, replayed as it was. */
  response: string;
  expires_ms: number;
}

export const ORDER_TABLES = `
CREATE TABLE IF NOT EXISTS orders (
  id TEXT PRIMARY KEY, status TEXT NOT NULL, items TEXT NOT NULL, amount_total INTEGER NOT NULL,
  currency TEXT NOT NULL, shipping_address TEXT NOT NULL, metadata TEXT NOT NULL,
  created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS orders_newest ON orders (created_ms DESC, id DESC);
CREATE TABLE IF NOT EXISTS idempotency_keys (
  key_hash TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, order_id TEXT NOT NULL, response TEXT NOT NULL,
  expires_ms INTEGER NOT NULL
);`;
