/**
 * The SQLite tables of the WebhookStore (docs/storage.md "Webhooks"): endpoints, deliveries, their
 * attempts and the pointer last announced. Synchronous calls (Durable Object SQL storage), so a
 * count and an insert happen with no await between them. Signing secrets are stored sealed
 * (AES-256-GCM under OAUTH_TOKEN_KEY, secret-sealing.ts), never in clear.
 */
import type { DeliveredEventType } from "./events";

export type EndpointStatus = "enabled" | "disabled";
export type DeliveryStatus = "pending" | "succeeded" | "failed";

export interface EndpointRow {
  id: string;
  account_id: string;
  url: string;
  /** JSON array of event types. */
  events: string;
  status: EndpointStatus;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  disabled_at: string | null;
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event: DeliveredEventType;
  body: string;
  status: DeliveryStatus;
  created_at: string;
  next_attempt_at: string | null;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  attempted_at: string;
  response_status: number | null;
  error: string | null;
  response_excerpt: string | null;
}

/** Deliveries kept per endpoint (newest); older ones are deleted as new ones are added. */
export const DELIVERIES_KEPT = 100;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS endpoints (
  id TEXT PRIMARY KEY, account_id TEXT NOT NULL, url TEXT NOT NULL, events TEXT NOT NULL, status TEXT NOT NULL,
  secret_sealed TEXT NOT NULL, previous_secret_sealed TEXT, previous_secret_expires_at TEXT,
  created_at TEXT NOT NULL, disabled_at TEXT
);
CREATE INDEX IF NOT EXISTS endpoints_by_account ON endpoints (account_id, created_at);
CREATE TABLE IF NOT EXISTS deliveries (
  id TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, event TEXT NOT NULL, body TEXT NOT NULL, status TEXT NOT NULL,
  created_at TEXT NOT NULL, next_attempt_at TEXT
);
CREATE INDEX IF NOT EXISTS deliveries_by_endpoint ON deliveries (endpoint_id, created_at);
CREATE TABLE IF NOT EXISTS attempts (
  delivery_id TEXT NOT NULL, attempt INTEGER NOT NULL, attempted_at TEXT NOT NULL, response_status INTEGER,
  error TEXT, response_excerpt TEXT, PRIMARY KEY (delivery_id, attempt)
);
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL);`;

type Row<T> = T & Record<string, SqlStorageValue>;

export class WebhookTables {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(SCHEMA);
  }

  endpointsOf(accountId: string): EndpointRow[] {
    return this.sql
      .exec<Row<EndpointRow>>("SELECT * FROM endpoints WHERE account_id = ? ORDER BY created_at, id", accountId)
      .toArray();
  }

  enabledEndpoints(): EndpointRow[] {
    return this.sql.exec<Row<EndpointRow>>("SELECT * FROM endpoints WHERE status = 'enabled' ORDER BY id").toArray();
  }

  endpoint(id: string): EndpointRow | undefined {
    return this.sql.exec<Row<EndpointRow>>("SELECT * FROM endpoints WHERE id = ?", id).toArray()[0];
  }

  insertEndpoint(row: EndpointRow): void {
    this.sql.exec(
      "INSERT INTO endpoints (id, account_id, url, events, status, secret_sealed, previous_secret_sealed, previous_secret_expires_at, created_at, disabled_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      row.id,
      row.account_id,
      row.url,
      row.events,
      row.status,
      row.secret_sealed,
      row.previous_secret_sealed,
      row.previous_secret_expires_at,
      row.created_at,
      row.disabled_at,
    );
  }

  rotateSecret(id: string, sealed: string, previousSealed: string, previousExpiresAt: string): void {
    this.sql.exec(
      "UPDATE endpoints SET secret_sealed = ?, previous_secret_sealed = ?, previous_secret_expires_at = ? WHERE id = ?",
      sealed,
      previousSealed,
      previousExpiresAt,
      id,
    );
  }

  disableEndpoint(id: string, at: string): void {
    this.sql.exec("UPDATE endpoints SET status = 'disabled', disabled_at = ? WHERE id = ?", at, id);
  }

  deleteEndpoint(id: string): void {
    this.sql.exec("DELETE FROM attempts WHERE delivery_id IN (SELECT id FROM deliveries WHERE endpoint_id = ?)", id);
    this.sql.exec("DELETE FROM deliveries WHERE endpoint_id = ?", id);
    this.sql.exec("DELETE FROM endpoints WHERE id = ?", id);
  }

  insertDelivery(row: DeliveryRow): void {
    this.sql.exec(
      "INSERT INTO deliveries (id, endpoint_id, event, body, status, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      row.id,
      row.endpoint_id,
      row.event,
      row.body,
      row.status,
      row.created_at,
      row.next_attempt_at,
    );
    const stale = `SELECT id FROM deliveries WHERE endpoint_id = ? ORDER BY created_at DESC, id DESC LIMIT -1 OFFSET ${DELIVERIES_KEPT}`;
    this.sql.exec(`DELETE FROM attempts WHERE delivery_id IN (${stale})`, row.endpoint_id);
    this.sql.exec(`DELETE FROM deliveries WHERE id IN (${stale})`, row.endpoint_id);
  }

  delivery(id: string): DeliveryRow | undefined {
    return this.sql.exec<Row<DeliveryRow>>("SELECT * FROM deliveries WHERE id = ?", id).toArray()[0];
  }

  /** Newest first; one more than `limit` tells the caller whether more exist. */
  /** Newest first; with `before`, only the deliveries older than it in (created_at, id) order. */
  deliveriesOf(endpointId: string, limit: number, before?: { created_at: string; id: string }): DeliveryRow[] {
    const [where, bindings] = before
      ? ["AND (created_at < ? OR (created_at = ? AND id < ?))", [before.created_at, before.created_at, before.id]]
      : ["", []];
    return this.sql
      .exec<Row<DeliveryRow>>(
        `SELECT * FROM deliveries WHERE endpoint_id = ? ${where} ORDER BY created_at DESC, id DESC LIMIT ?`,
        endpointId,
        ...bindings,
        limit,
      )
      .toArray();
  }

  attemptsOf(deliveryId: string): AttemptRow[] {
    return this.sql
      .exec<Row<AttemptRow>>("SELECT * FROM attempts WHERE delivery_id = ? ORDER BY attempt", deliveryId)
      .toArray();
  }

  attemptCount(deliveryId: string): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM attempts WHERE delivery_id = ?", deliveryId).one().n;
  }

  insertAttempt(row: AttemptRow): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO attempts (delivery_id, attempt, attempted_at, response_status, error, response_excerpt) VALUES (?, ?, ?, ?, ?, ?)",
      row.delivery_id,
      row.attempt,
      row.attempted_at,
      row.response_status,
      row.error,
      row.response_excerpt,
    );
  }

  settleDelivery(id: string, status: DeliveryStatus, nextAttemptAt: string | null): void {
    this.sql.exec("UPDATE deliveries SET status = ?, next_attempt_at = ? WHERE id = ?", status, nextAttemptAt, id);
  }

  state(key: string): string | null {
    return this.sql.exec<{ value: string }>("SELECT value FROM state WHERE key = ?", key).toArray()[0]?.value ?? null;
  }

  setState(key: string, value: string): void {
    this.sql.exec("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)", key, value);
  }
}
