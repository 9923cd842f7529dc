/**
 * The orders of one account, in its Durable Object's SQLite (AccountObject), with the idempotency
 * records of their creation. Every method is synchronous: a lookup of an Idempotency-Key and the
 * insert of the order it creates run with no await between them, and the order and its record
 * commit in one transaction, so concurrent requests with one key create one order.
 */
import { invalidValueError } from "../http/query-problem";
import { z } from "@hono/zod-openapi";
import { randomBase62 } from "../../common/auth/checksum";
import { accept, refuse, type Outcome } from "../auth/account-views";
import { parseStoredJson } from "../http/stored-json";
import { Address } from "../customers/schemas";
import { ORDER_TABLES, type IdempotencyRow, type OrderRow } from "./order-tables";
import { OrderLine, type OrderView } from "./schemas";
import { nextStatus, startsOf, type OrderAction, type OrderStatus } from "./state-machine";

/** How long a key's first answer is replayed (Stripe: 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface NewOrder {
  items: OrderLine[];
  amount_total: number;
  currency: string;
  shipping_address: Address | null;
  metadata: Record<string, string>;
  /** The SHA-256 of the Idempotency-Key and of the request it came with, when one was sent. */
  idempotency: { keyHash: string; fingerprint: string } | null;
}
export interface CreatedOrder {
  order: OrderView;
  replayed: boolean;
}
export interface OrderFilter {
  limit: number;
  starting_after?: string;
  status?: OrderStatus;
  createdFrom?: number;
  createdBefore?: number;
}

const Lines = z.array(OrderLine);
const Metadata = z.record(z.string(), z.string());

export const newOrderId = () => `ord_${randomBase62(20)}`;

export class OrderBook {
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly livemode: boolean,
  ) {
    storage.sql.exec(ORDER_TABLES);
  }

  create(input: NewOrder, defaultAddress: Address | null): Outcome<CreatedOrder> {
    const sql = this.storage.sql;
    // Strictly after the newest order, so "newest first" is exactly the order of creation.
    const newest = sql.exec<{ newest: number | null }>("SELECT MAX(created_ms) AS newest FROM orders").one().newest;
    const now = Math.max(Date.now(), (newest ?? 0) + 1);
    sql.exec("DELETE FROM idempotency_keys WHERE expires_ms <= ?", now);
    const { idempotency } = input;
    if (idempotency) {
      const seen = sql
        .exec<IdempotencyRow & Record<string, SqlStorageValue>>(
          "SELECT * FROM idempotency_keys WHERE key_hash = ?",
          idempotency.keyHash,
        )
        .toArray()[0];
      if (seen && seen.fingerprint !== idempotency.fingerprint) {
        return refuse(
          "idempotency_key_reused",
          "This Idempotency-Key was used with a different request in the last 24 hours; use a new key for a new order.",
        );
      }
      if (seen) return accept({ order: JSON.parse(seen.response) as OrderView, replayed: true });
    }
    const shippingAddress = input.shipping_address ?? defaultAddress;
    if (!shippingAddress) {
      const message = "required: the customer has no shipping address on file (PATCH /v2/customer sets one)";
      return refuse("bad_request", `shipping_address: ${message}`, {
        errors: [{ path: "shipping_address", message, code: "bad_request" }],
      });
    }
    const row: OrderRow = {
      id: newOrderId(),
      status: "pending",
      items: JSON.stringify(input.items),
      amount_total: input.amount_total,
      currency: input.currency,
      shipping_address: JSON.stringify(shippingAddress),
      metadata: JSON.stringify(input.metadata),
      created_ms: now,
      updated_ms: now,
    };
    const order = this.#view(row);
    this.storage.transactionSync(() => {
      sql.exec(
        "INSERT INTO orders (id, status, items, amount_total, currency, shipping_address, metadata, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        row.id,
        row.status,
        row.items,
        row.amount_total,
        row.currency,
        row.shipping_address,
        row.metadata,
        row.created_ms,
        row.updated_ms,
      );
      if (idempotency) {
        sql.exec(
          "INSERT OR REPLACE INTO idempotency_keys (key_hash, fingerprint, order_id, response, expires_ms) VALUES (?, ?, ?, ?, ?)",
          idempotency.keyHash,
          idempotency.fingerprint,
          row.id,
          JSON.stringify(order),
          now + IDEMPOTENCY_TTL_MS,
        );
      }
    });
    return accept({ order, replayed: false });
  }

  order(id: string): Outcome<OrderView> {
    const row = this.#row(id);
    return row ? accept(this.#view(row)) : refuse("order_not_found", `No order ${id} for this customer.`);
  }

  /** Newest first, after the `starting_after` order if given; one row more than the page says whether more follow. */
  list(filter: OrderFilter): Outcome<{ data: OrderView[]; has_more: boolean }> {
    let cursor = { created_ms: Number.MAX_SAFE_INTEGER, id: "" };
    if (filter.starting_after) {
      const after = this.#row(filter.starting_after);
      if (!after) {
        const message = `${filter.starting_after} is not an order of this customer: take the cursor from a page of this list`;
        return refuse("invalid_cursor", `starting_after: ${message}`, {
          errors: [invalidValueError("starting_after", message)],
        });
      }
      cursor = after;
    }
    const rows = this.storage.sql
      .exec<OrderRow & Record<string, SqlStorageValue>>(
        `SELECT * FROM orders
         WHERE (?1 IS NULL OR status = ?1) AND created_ms >= ?2 AND created_ms < ?3
           AND (created_ms < ?4 OR (created_ms = ?4 AND id < ?5))
         ORDER BY created_ms DESC, id DESC LIMIT ?6`,
        filter.status ?? null,
        filter.createdFrom ?? 0,
        filter.createdBefore ?? Number.MAX_SAFE_INTEGER,
        cursor.created_ms,
        cursor.id || "\uffff",
        filter.limit + 1,
      )
      .toArray();
    return accept({
      data: rows.slice(0, filter.limit).map((row) => this.#view(row)),
      has_more: rows.length > filter.limit,
    });
  }

  /** Moves an order through the state machine (state-machine.ts); 409 when the move is not allowed from its status. */
  move(id: string, action: OrderAction): Outcome<OrderView> {
    const row = this.#row(id);
    if (!row) return refuse("order_not_found", `No order ${id} for this customer.`);
    const next = nextStatus(row.status, action);
    if (!next) {
      return refuse(
        "invalid_state_transition",
        `Order ${id} is ${row.status}; ${action} is allowed only from ${startsOf(action).join(" or ")}.`,
      );
    }
    const now = Date.now();
    this.storage.sql.exec("UPDATE orders SET status = ?, updated_ms = ? WHERE id = ?", next, now, id);
    return accept(this.#view({ ...row, status: next, updated_ms: now }));
  }

  #row(id: string): OrderRow | undefined {
    return this.storage.sql
      .exec<OrderRow & Record<string, SqlStorageValue>>("SELECT * FROM orders WHERE id = ?", id)
      .toArray()[0];
  }

  #view(row: OrderRow): OrderView {
    return {
      id: row.id,
      object: "order",
      status: row.status,
      items: parseStoredJson(row.items, Lines, "order items") ?? [],
      amount_total: row.amount_total,
      currency: row.currency as OrderView["currency"],
      shipping_address: parseStoredJson(row.shipping_address, Address, "order address") as Address,
      metadata: parseStoredJson(row.metadata, Metadata, "order metadata") ?? {},
      created_at: new Date(row.created_ms).toISOString(),
      updated_at: new Date(row.updated_ms).toISOString(),
      livemode: this.livemode,
    };
  }
}
