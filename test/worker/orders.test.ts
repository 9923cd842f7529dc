/**
 * POST/GET /v2/orders, GET /v2/orders/{id}, cancel: what a customer's app does, working as
 * documented.
 *
 * Refusals of the orders API: bad input (every problem at once), unknown ids, the state machine.
 */
import { describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { bearer, call } from "./auth-fixtures";
import * as orders from "./orders-support";
import { expectProblem } from "./support/problems";

interface OrderList {
  object: string;
  data: orders.OrderView[];
  has_more: boolean;
  url: string;
  next: string | null;
}

describe("POST /v2/orders", () => {
  it("creates a pending live order priced from the collection, shipped to the customer's address", async () => {
    const { secret } = await orders.customer();
    const res = await orders.createOrder(secret, {
      items: [
        { cheese_id: "chs_comte", quantity: 2 },
        { cheese_id: "chs_feta", quantity: 3 },
      ],
      metadata: { po: "PO-1042" },
    });
    expect(res.status).toBe(201);
    const order = await res.json<orders.OrderView>();
    expect(order).toMatchObject({
      object: "order",
      status: "pending",
      items: [
        { cheese_id: "chs_comte", name: "Comté", quantity: 2, unit_amount: 2450 },
        { cheese_id: "chs_feta", name: "Feta", quantity: 3, unit_amount: 890 },
      ],
      amount_total: 2 * 2450 + 3 * 890,
      currency: "eur",
      shipping_address: { ...orders.ADDRESS, line2: null },
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
    const { secret } = await orders.customer();
    const elsewhere = {
      line1: "Bahnhofstrasse 1",
      line2: "3rd floor",
      city: "Zürich",
      postal_code: "8001",
      country: "CH",
    };
    const order = await orders.placeOrder(secret, { ...orders.COMTE_TWICE, shipping_address: elsewhere });
    expect(order.shipping_address).toEqual(elsewhere);
  });
});

describe("GET /v2/orders", () => {
  it("lists newest first and pages by keyset with next, with no order twice or missed", async () => {
    const { secret } = await orders.customer();
    const placed: string[] = [];
    for (let i = 0; i < 5; i++) placed.push((await orders.placeOrder(secret)).id);
    const first = await orders.getJson(secret, "/v2/orders?limit=2");
    expect(first.status).toBe(200);
    const page1 = await first.json<OrderList>();
    expect(page1).toMatchObject({ object: "list", url: "/v2/orders", has_more: true });
    expect(page1.next).toMatch(/^\/v2\/orders\?limit=2&cursor=[\w-]+\.[\w-]+$/);
    const page2 = await (await orders.getJson(secret, expectDefined(page1.next, "page 1's next"))).json<OrderList>();
    const page3 = await (await orders.getJson(secret, expectDefined(page2.next, "page 2's next"))).json<OrderList>();
    expect(page3).toMatchObject({ has_more: false, next: null });
    const seen = [...page1.data, ...page2.data, ...page3.data].map((order) => order.id);
    expect(seen).toEqual([...placed].reverse());
    // Stripe's starting_after, an order id, still pages as the cursor does.
    const byId = `/v2/orders?limit=2&starting_after=${expectDefined(page1.data[1], "a 2nd order").id}`;
    expect((await (await orders.getJson(secret, byId)).json<OrderList>()).data).toEqual(page2.data);
  });

  it("refuses a cursor made by hand, of other filters or of another customer: 400 invalid_cursor", async () => {
    const { secret } = await orders.customer();
    const other = await orders.customer();
    for (let i = 0; i < 3; i++) {
      await orders.placeOrder(secret);
      await orders.placeOrder(other.secret);
    }
    const next = expectDefined(
      (await (await orders.getJson(secret, "/v2/orders?limit=1")).json<OrderList>()).next,
      "next",
    );
    const cursor = expectDefined(new URL(next, "https://api.test").searchParams.get("cursor"), "its cursor");
    for (const [who, path] of [
      [secret, `/v2/orders?limit=1&cursor=${cursor.slice(0, -2)}AA`],
      [secret, `/v2/orders?limit=1&status=pending&cursor=${cursor}`],
      [other.secret, `/v2/orders?limit=1&cursor=${cursor}`],
    ] as const) {
      const refused = (await expectProblem(
        await orders.getJson(who, path),
        400,
        "invalid_cursor",
      )) as unknown as ValidationProblem;
      expect(
        refused.errors.map((e) => [e.path, e.code]),
        path,
      ).toEqual([["cursor", "invalid_cursor"]]);
    }
  });

  it("filters by status and by created[gte]/created[lt], and keeps the filters in next", async () => {
    const { secret, accountId } = await orders.customer();
    const a = await orders.placeOrder(secret);
    const b = await orders.placeOrder(secret);
    const c = await orders.placeOrder(secret);
    await call(`/v2/orders/${b.id}/cancel`, { method: "POST", headers: bearer(secret) });
    await orders.advanceDirectly(accountId, c.id, 1);
    const cancelled = await (await orders.getJson(secret, "/v2/orders?status=cancelled")).json<OrderList>();
    expect(cancelled.data.map((order) => [order.id, order.status])).toEqual([[b.id, "cancelled"]]);
    const pending = await (await orders.getJson(secret, "/v2/orders?status=pending&limit=1")).json<OrderList>();
    expect(pending.data.map((order) => order.id)).toEqual([a.id]);
    const from = encodeURIComponent(b.created_at);
    const window = await (await orders.getJson(secret, `/v2/orders?created[gte]=${from}&limit=1`)).json<OrderList>();
    expect(window.data.map((order) => order.id)).toEqual([c.id]);
    expect(
      new URL(expectDefined(window.next, "the window's next"), "https://api.test").searchParams.get("created[gte]"),
    ).toBe(b.created_at);
    const before = encodeURIComponent(b.created_at);
    const older = await (await orders.getJson(secret, `/v2/orders?created[lt]=${before}`)).json<OrderList>();
    expect(older.data.every((order) => order.created_at < b.created_at)).toBe(true);
  });
});

describe("GET /v2/orders/{id} and cancel", () => {
  it("reads an order and cancels it while pending", async () => {
    const { secret } = await orders.customer();
    const order = await orders.placeOrder(secret);
    const read = await orders.getJson(secret, `/v2/orders/${order.id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(order);
    const cancelled = await call(`/v2/orders/${order.id}/cancel`, { method: "POST", headers: bearer(secret) });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json<orders.OrderView>()).toMatchObject({ id: order.id, status: "cancelled" });
    expect((await (await orders.getJson(secret, `/v2/orders/${order.id}`)).json<orders.OrderView>()).status).toBe(
      "cancelled",
    );
  });

  it("cancels a paid order (not yet shipped)", async () => {
    const { secret, accountId } = await orders.customer();
    const order = await orders.placeOrder(secret);
    await orders.advanceDirectly(accountId, order.id, 1);
    const res = await call(`/v2/orders/${order.id}/cancel`, {
      method: "POST",
      headers: { ...bearer(secret), "Content-Type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(200);
    expect((await res.json<orders.OrderView>()).status).toBe("cancelled");
  });
});

interface ValidationProblem {
  detail: string;
  errors: { path: string; message: string; code: string }[];
}
const pathsOf = async (res: Response) =>
  ((await expectProblem(res, 400, "bad_request")) as unknown as ValidationProblem).errors.map((e) => e.path).sort();

const countOrders = async (secret: string) =>
  (await (await orders.getJson(secret, "/v2/orders?limit=100")).json<{ data: unknown[] }>()).data.length;

describe("POST /v2/orders bad input", () => {
  it("names every bad line at once: unknown cheese, quantity 0 and 100, a repeated cheese, an unknown field", async () => {
    const { secret } = await orders.customer();
    const res = await orders.createOrder(secret, {
      items: [
        { cheese_id: "chs_comte", quantity: 0 },
        { cheese_id: "chs_stilton", quantity: 1 },
        { cheese_id: "chs_feta", quantity: 100 },
        { cheese_id: "chs_manchego", quantity: 1.5, colour: "red" },
      ],
      gift: true,
    });
    expect(await pathsOf(res)).toEqual([
      "gift",
      "items.0.quantity",
      "items.1.cheese_id",
      "items.2.quantity",
      "items.3.colour",
      "items.3.quantity",
    ]);
    expect(await countOrders(secret)).toBe(0);
  });

  it("refuses no lines, more than 50 lines, mixed currencies and a cheese twice", async () => {
    const { secret } = await orders.customer();
    expect(await pathsOf(await orders.createOrder(secret, { items: [] }))).toEqual(["items"]);
    const many = Array.from({ length: 51 }, () => ({ cheese_id: "chs_comte", quantity: 1 }));
    expect(await pathsOf(await orders.createOrder(secret, { items: many }))).toEqual(["items"]);
    const mixed = await orders.createOrder(secret, {
      items: [
        { cheese_id: "chs_comte", quantity: 1 },
        { cheese_id: "chs_cheddar", quantity: 1 },
      ],
    });
    const problem = (await expectProblem(mixed, 400, "bad_request")) as unknown as ValidationProblem;
    expect(problem.errors).toEqual([
      { path: "items", message: "one currency per order, not eur and gbp", code: "bad_request" },
    ]);
    const twice = await orders.createOrder(secret, {
      items: [
        { cheese_id: "chs_comte", quantity: 1 },
        { cheese_id: "chs_comte", quantity: 2 },
      ],
    });
    expect(await pathsOf(twice)).toEqual(["items.1.cheese_id"]);
    expect(await countOrders(secret)).toBe(0);
  });

  it("reports an unknown cheese once, with no currency problem beside it", async () => {
    const { secret } = await orders.customer();
    const items = ["chs_nope", "chs_comte"].map((cheese_id) => ({ cheese_id, quantity: 1 }));
    const refused = await expectProblem(await orders.createOrder(secret, { items }), 400, "bad_request");
    expect((refused as unknown as ValidationProblem).errors).toEqual([
      { path: "items.0.cheese_id", message: "no such cheese: see GET /v2/cheeses", code: "bad_request" },
    ]);
    expect(await countOrders(secret)).toBe(0);
  });

  it("checks the address and metadata, and needs an address when the customer has none", async () => {
    const { secret } = await orders.customer({ address: null });
    const res = await orders.createOrder(secret, {
      ...orders.COMTE_TWICE,
      shipping_address: { line1: "", city: "Lyon", postal_code: "69002", country: "fr" },
      metadata: { ["k".repeat(41)]: "v", ok: "x".repeat(501) },
    });
    expect(await pathsOf(res)).toEqual([
      "metadata.kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk",
      "metadata.ok",
      "shipping_address.country",
      "shipping_address.line1",
    ]);
    const none = await orders.createOrder(secret, orders.COMTE_TWICE);
    const problem = (await expectProblem(none, 400, "bad_request")) as unknown as ValidationProblem;
    expect(problem.errors).toEqual([expect.objectContaining({ path: "shipping_address" })]);
    expect(await countOrders(secret)).toBe(0);
  });

  it("refuses malformed JSON, no body, another media type, a huge body and an unknown query parameter", async () => {
    const { secret } = await orders.customer();
    await expectProblem(await orders.createOrder(secret, '{"items": ['), 400, "bad_request");
    await expectProblem(await call("/v2/orders", { method: "POST", headers: bearer(secret) }), 400, "bad_request");
    const form = await call("/v2/orders", {
      method: "POST",
      headers: { ...bearer(secret), "Content-Type": "application/x-www-form-urlencoded" },
      body: "items=chs_comte",
    });
    await expectProblem(form, 415, "unsupported_media_type");
    const huge = { ...orders.COMTE_TWICE, metadata: { note: "x".repeat(70_000) } };
    await expectProblem(await orders.createOrder(secret, huge), 413, "content_too_large");
    await expectProblem(
      await call("/v2/orders?dry_run=1", orders.json(secret, "POST", orders.COMTE_TWICE)),
      400,
      "unknown_parameter",
    );
    expect(await countOrders(secret)).toBe(0);
  });
});

describe("reading orders: bad ids and parameters", () => {
  it("400 for a malformed id, 404 order_not_found for an unknown one", async () => {
    const { secret } = await orders.customer();
    expect(await pathsOf(await orders.getJson(secret, "/v2/orders/12345"))).toEqual(["id"]);
    await expectProblem(await orders.getJson(secret, "/v2/orders/ord_AAAAAAAAAAAAAAAAAAAA"), 404, "order_not_found");
    const cancel = await call("/v2/orders/ord_AAAAAAAAAAAAAAAAAAAA/cancel", {
      method: "POST",
      headers: bearer(secret),
    });
    await expectProblem(cancel, 404, "order_not_found");
  });

  it("lists every bad list parameter at once, and refuses an unknown cursor", async () => {
    const { secret } = await orders.customer();
    const res = await orders.getJson(
      secret,
      "/v2/orders?limit=0&status=lost&created[gte]=yesterday&created[lt]=2026-13-01&starting_after=x&sort=asc",
    );
    const problem = await expectProblem(res, 400, "unknown_parameter");
    const paths = (problem as unknown as ValidationProblem).errors.map((e) => e.path);
    expect(paths[0]).toBe("sort");
    expect(paths.sort()).toEqual(["created[gte]", "created[lt]", "limit", "sort", "starting_after", "status"]);
    const cursor = await orders.getJson(secret, "/v2/orders?starting_after=ord_AAAAAAAAAAAAAAAAAAAA");
    const refused = (await expectProblem(cursor, 400, "invalid_cursor")) as unknown as ValidationProblem;
    expect(refused.errors.map((e) => [e.path, e.code])).toEqual([["starting_after", "invalid_cursor"]]);
  });

  it("takes a limit in decimal digits only, and refuses an impossible date", async () => {
    const { secret } = await orders.customer();
    for (const query of ["limit=0x10", "limit=1e1", "limit=%205", "created[gte]=2026-02-30T00:00:00Z"]) {
      const problem = await expectProblem(
        await orders.getJson(secret, `/v2/orders?${query}`),
        400,
        "invalid_parameter",
      );
      expect(
        (problem as unknown as ValidationProblem).errors.map((e) => e.code),
        query,
      ).toEqual(["invalid_parameter"]);
    }
  });

  it("compares created[gte] and created[lt] finer than a millisecond exactly", async () => {
    const { secret } = await orders.customer();
    const order = await orders.placeOrder(secret);
    const justAfter = encodeURIComponent(order.created_at.replace("Z", "0001Z"));
    const ids = async (query: string) =>
      (await (await orders.getJson(secret, `/v2/orders?${query}`)).json<OrderList>()).data.map((o) => o.id);
    expect(await ids(`created[gte]=${encodeURIComponent(order.created_at)}`)).toEqual([order.id]);
    expect(await ids(`created[gte]=${justAfter}`)).toEqual([]);
    expect(await ids(`created[lt]=${justAfter}`)).toEqual([order.id]);
  });
});

describe("the state machine", () => {
  it("refuses to cancel a cancelled or shipped order with 409 invalid_state_transition, changing nothing", async () => {
    const { secret, accountId } = await orders.customer();
    const cancelled = await orders.placeOrder(secret);
    const cancel = (id: string) => call(`/v2/orders/${id}/cancel`, { method: "POST", headers: bearer(secret) });
    expect((await cancel(cancelled.id)).status).toBe(200);
    const again = await expectProblem(await cancel(cancelled.id), 409, "invalid_state_transition");
    expect(again.detail).toBe(`Order ${cancelled.id} is cancelled; cancel is allowed only from pending or paid.`);
    const shipped = await orders.placeOrder(secret);
    await orders.advanceDirectly(accountId, shipped.id, 2);
    await expectProblem(await cancel(shipped.id), 409, "invalid_state_transition");
    const read = await (await orders.getJson(secret, `/v2/orders/${shipped.id}`)).json<{ status: string }>();
    expect(read.status).toBe("shipped");
  });

  it("has no test helper on production: advance is 404 not_found and changes nothing", async () => {
    const { secret } = await orders.customer();
    const order = await orders.placeOrder(secret);
    const res = await call(`/v2/orders/${order.id}/test_helpers/advance`, { method: "POST", headers: bearer(secret) });
    const problem = await expectProblem(res, 404, "not_found");
    expect(problem.detail).toMatch(/sandbox only/);
    const doc = await (await call("/openapi.json")).json<{
      paths: Record<string, { post: { responses: Record<string, unknown> } }>;
    }>();
    const documented = JSON.stringify(doc.paths["/v2/orders/{id}/test_helpers/advance"]?.post.responses["404"]);
    expect(documented).toContain('"not_found"');
    expect((await (await orders.getJson(secret, `/v2/orders/${order.id}`)).json<{ status: string }>()).status).toBe(
      "pending",
    );
  });

  it("refuses a cancel body with fields", async () => {
    const { secret } = await orders.customer();
    const order = await orders.placeOrder(secret);
    const res = await call(`/v2/orders/${order.id}/cancel`, orders.json(secret, "POST", { reason: "changed my mind" }));
    expect(await pathsOf(res)).toEqual(["reason"]);
    expect((await (await orders.getJson(secret, `/v2/orders/${order.id}`)).json<{ status: string }>()).status).toBe(
      "pending",
    );
  });
});
