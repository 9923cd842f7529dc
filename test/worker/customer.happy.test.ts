/**
 * GET and PATCH /v2/customer: the profile, its ETag, and merge-patch semantics (RFC 7396). The
 * refusals (every problem at once, stale tags, bad bodies; nothing saved): customer.error.test.ts.
 */
import { describe, expect, it } from "vitest";
import { bearer, call, newKey } from "./auth-fixtures";
import { customer, type CustomerView, json } from "./orders-support";
import { expectInvalidFields, patch } from "./customer-support";
import { env } from "cloudflare:workers";
import { createAccount } from "../../src/worker/auth/accounts";
import { headerOf } from "./support/api";

describe("GET /v2/customer", () => {
  it("shows the profile made from the account, with an ETag and livemode", async () => {
    const { secret } = await customer({ address: null });
    const res = await call("/v2/customer", { headers: bearer(secret) });
    expect(res.status).toBe(200);
    const profile = await res.json<CustomerView>();
    expect(profile).toMatchObject({
      object: "customer",
      phone: null,
      shipping_address: null,
      preferences: { marketing_emails: false, language: "en" },
      livemode: true,
    });
    expect(profile.id).toMatch(/^cus_[0-9A-Za-z]{20}$/);
    expect(profile.email).toMatch(/@example\.test$/);
    expect(profile.name).toMatch(/^Test /);
    expect(res.headers.get("etag")).toBe('"v1"');
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
  });

  it("answers 304 to If-None-Match with the current ETag, and 412 to a stale If-Match", async () => {
    const { secret } = await customer({ address: null });
    const etag = headerOf(await call("/v2/customer", { headers: bearer(secret) }), "etag");
    const same = await call("/v2/customer", { headers: { ...bearer(secret), "If-None-Match": etag } });
    expect(same.status).toBe(304);
    expect(same.headers.get("etag")).toBe(etag);
    const stale = await call("/v2/customer", { headers: { ...bearer(secret), "If-Match": '"v0"' } });
    expect(stale.status).toBe(412);
  });
});

describe("PATCH /v2/customer", () => {
  it("merges a patch: members replace, objects merge, null removes; the ETag moves on", async () => {
    const { secret } = await customer({ address: null });
    const set = await patch(secret, {
      phone: "+41446681800",
      shipping_address: { line1: "Bahnhofstrasse 1", city: "Zürich", postal_code: "8001", country: "CH" },
      preferences: { language: "de-CH" },
    });
    expect(set.status).toBe(200);
    expect(set.headers.get("etag")).toBe('"v2"');
    expect(await set.json<CustomerView>()).toMatchObject({
      phone: "+41446681800",
      shipping_address: { line1: "Bahnhofstrasse 1", line2: null, city: "Zürich", postal_code: "8001", country: "CH" },
      preferences: { marketing_emails: false, language: "de-CH" },
    });
    const merged = await patch(
      secret,
      { shipping_address: { line2: "3rd floor" }, phone: null },
      { "If-Match": '"v2"' },
    );
    expect(merged.status).toBe(200);
    const profile = await merged.json<CustomerView>();
    expect(profile.phone).toBeNull();
    expect(profile.shipping_address).toEqual({
      line1: "Bahnhofstrasse 1",
      line2: "3rd floor",
      city: "Zürich",
      postal_code: "8001",
      country: "CH",
    });
    expect(profile.updated_at >= profile.created_at).toBe(true);
    const read = await call("/v2/customer", { headers: bearer(secret) });
    expect(await read.json()).toEqual(profile);
    expect(read.headers.get("etag")).toBe('"v3"');
  });

  it("accepts application/json too, and records an email change as given", async () => {
    const { secret } = await customer({ address: null });
    const res = await call("/v2/customer", json(secret, "PATCH", { email: "ada@example.org", name: " Ada " }));
    expect(res.status).toBe(200);
    expect(await res.json<CustomerView>()).toMatchObject({ email: "ada@example.org", name: "Ada" });
  });

  it("uses the saved address as the default of the next order", async () => {
    const { secret } = await customer({ address: null });
    const address = { line1: "1 Cheese Lane", city: "London", postal_code: "EC1A 1BB", country: "GB" };
    expect((await patch(secret, { shipping_address: address })).status).toBe(200);
    const order = await call(
      "/v2/orders",
      json(secret, "POST", { items: [{ cheese_id: "chs_cheddar", quantity: 1 }] }),
    );
    expect(order.status).toBe(201);
    expect(await order.json()).toMatchObject({ shipping_address: { ...address, line2: null }, currency: "gbp" });
  });
});

describe("a profile made from an account outside the profile's rules", () => {
  it("is still shown (never a 500), and a change asks for that field to be fixed", async () => {
    const long = "N".repeat(150);
    const created = await createAccount(env, {
      email: `long-${crypto.randomUUID().slice(0, 8)}@example.test`,
      password: "correct horse battery staple",
      name: long,
      roles: ["customer"],
    });
    if (!created.ok) throw new Error(created.detail);
    const { secret } = await newKey(created.value.id);
    const shown = await call("/v2/customer", { headers: bearer(secret) });
    expect(shown.status).toBe(200);
    expect((await shown.json<CustomerView>()).name).toBe(long);
    const res = await call("/v2/customer", json(secret, "PATCH", { phone: "+41446681800" }));
    await expectInvalidFields(res, ["name"]);
    expect((await call("/v2/customer", json(secret, "PATCH", { name: "Short" }))).status).toBe(200);
  });
});
