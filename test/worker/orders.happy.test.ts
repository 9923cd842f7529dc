/** POST/GET /v2/orders, GET /v2/orders/{id}, cancel: what a customer's app does, working as documented. */
import { describe, expect, it } from "vitest";
import { bearer, call } from "./auth-fixtures";
import {
  ADDRESS,
  advanceDirectly,
  COMTE_TWICE,
  createOrder,
  customer,
  getJson,
  type OrderView,
  placeOrder,
} from "./orders-support";

interface OrderList {
  object: string;
  data: OrderView[];
  has_more: boolean;
  url: string;
  next: string | null;
}

describe("POST /v2/orders", () => {
  it("creates a pending live order priced from the collection, shipped to the customer's address", async () => {
    const { secret } = await customer();
    const res = await createOrder(secret, {
      items: [
        { cheese_id: "chs_comte", quantity: 2 },
        { cheese_id: "chs_feta", quantity: 3 },
      ],
      metadata: { po: "PO-1042" },
    });
    expect(res.status).toBe(201);
    const order = await res.json<OrderView>();
    expect(order).toMatchObject({
      object: "order",
      status: "pending",
      items: [
        { cheese_id: "chs_comte", name: "Comté", quantity: 2, unit_amount: 2450 },
        { cheese_id: "chs_feta", name: "Feta", quantity: 3, unit_amount: 890 },
      ],
      amount_total: 2 * 2450 + 3 * 890,
      currency: "eur",
      shipping_address: { ...ADDRESS, line2: null },
      metadata: { po: "PO-1042" },
      livemode: true,
    });
    expect(order.id).toMatch(/^ord_[0-9A-Za-z]{20}$/);
    expect(res.headers.get("location")).toBe(`/v2/orders/${order.id}`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    expect(Date.parse(order.created_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("ships to the address in the request when one is given", async () => {
    const { secret } = await customer();
    const elsewhere = {
      line1: "Bahnhofstrasse 1",
      line2: "3rd floor",
      city: "Zürich",
      postal_code: "8001",
      country: "CH",
    };
    const order = await placeOrder(secret, { ...COMTE_TWICE, shipping_address: elsewhere });
    expect(order.shipping_address).toEqual(elsewhere);
  });
});

describe("GET /v2/orders", () => {
  it("lists newest first and pages by keyset with next, with no order twice or missed", async () => {
    const { secret } = await customer();
    const placed: string[] = [];
    for (let i = 0; i < 5; i++) placed.push((await placeOrder(secret)).id);
    const first = await getJson(secret, "/v2/orders?limit=2");
    expect(first.status).toBe(200);
    const page1 = await first.json<OrderList>();
    expect(page1).toMatchObject({ object: "list", url: "/v2/orders", has_more: true });
    expect(page1.next).toBe(`/v2/orders?limit=2&starting_after=${page1.data[1]!.id}`);
    const page2 = await (await getJson(secret, page1.next!)).json<OrderList>();
    const page3 = await (await getJson(secret, page2.next!)).json<OrderList>();
    expect(page3).toMatchObject({ has_more: false, next: null });
    const seen = [...page1.data, ...page2.data, ...page3.data].map((order) => order.id);
    expect(seen).toEqual([...placed].reverse());
  });

  it("filters by status and by created[gte]/created[lt], and keeps the filters in next", async () => {
    const { secret, accountId } = await customer();
    const a = await placeOrder(secret);
    const b = await placeOrder(secret);
    const c = await placeOrder(secret);
    await call(`/v2/orders/${b.id}/cancel`, { method: "POST", headers: bearer(secret) });
    await advanceDirectly(accountId, c.id, 1);
    const cancelled = await (await getJson(secret, "/v2/orders?status=cancelled")).json<OrderList>();
    expect(cancelled.data.map((order) => [order.id, order.status])).toEqual([[b.id, "cancelled"]]);
    const pending = await (await getJson(secret, "/v2/orders?status=pending&limit=1")).json<OrderList>();
    expect(pending.data.map((order) => order.id)).toEqual([a.id]);
    const from = encodeURIComponent(b.created_at);
    const window = await (await getJson(secret, `/v2/orders?created[gte]=${from}&limit=1`)).json<OrderList>();
    expect(window.data.map((order) => order.id)).toEqual([c.id]);
    expect(new URL(window.next!, "https://api.test").searchParams.get("created[gte]")).toBe(b.created_at);
    const before = encodeURIComponent(b.created_at);
    const older = await (await getJson(secret, `/v2/orders?created[lt]=${before}`)).json<OrderList>();
    expect(older.data.every((order) => order.created_at < b.created_at)).toBe(true);
  });
});

describe("GET /v2/orders/{id} and cancel", () => {
  it("reads an order and cancels it while pending", async () => {
    const { secret } = await customer();
    const order = await placeOrder(secret);
    const read = await getJson(secret, `/v2/orders/${order.id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(order);
    const cancelled = await call(`/v2/orders/${order.id}/cancel`, { method: "POST", headers: bearer(secret) });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json<OrderView>()).toMatchObject({ id: order.id, status: "cancelled" });
    expect((await (await getJson(secret, `/v2/orders/${order.id}`)).json<OrderView>()).status).toBe("cancelled");
  });

  it("cancels a paid order (not yet shipped)", async () => {
    const { secret, accountId } = await customer();
    const order = await placeOrder(secret);
    await advanceDirectly(accountId, order.id, 1);
    const res = await call(`/v2/orders/${order.id}/cancel`, {
      method: "POST",
      headers: { ...bearer(secret), "Content-Type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(200);
    expect((await res.json<OrderView>()).status).toBe("cancelled");
  });
});
