/**
 * GET and PATCH /v2/customer: the profile, its ETag, and merge-patch semantics (RFC 7396); and the
 * refusals: every problem at once, stale tags, bad bodies; nothing saved.
 */
import { describe, expect, it } from "vitest";
import { bearer, call, newKey } from "./auth-fixtures";
import { customer, type CustomerView, json } from "./orders-support";
import { env } from "cloudflare:workers";
import { createAccount } from "../../src/worker/auth/accounts";
import { expectProblem } from "./support/problems";
import { headerOf } from "./support/api";

const patch = (secret: string, body: unknown, headers: Record<string, string> = {}) =>
  call("/v2/customer", json(secret, "PATCH", body, { "Content-Type": "application/merge-patch+json", ...headers }));

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

interface ValidationProblem {
  detail: string;
  errors: { path: string; message: string; code: string }[];
}

/** The 400 bad_request of a refused change, whose errors name exactly `paths` (in any order). */
async function expectInvalidFields(res: Response, paths: string[]): Promise<ValidationProblem> {
  const problem = (await expectProblem(res, 400, "bad_request")) as unknown as ValidationProblem;
  expect(problem.errors.map((e) => e.path).sort()).toEqual([...paths].sort());
  return problem;
}

const profileOf = async (secret: string) =>
  (await call("/v2/customer", { headers: bearer(secret) })).json<CustomerView>();

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

describe("PATCH /v2/customer refusals", () => {
  it("lists every invalid field in one 400, and saves none of the valid ones", async () => {
    const { secret } = await customer({ address: null });
    const before = await profileOf(secret);
    const res = await call(
      "/v2/customer",
      json(secret, "PATCH", {
        name: "",
        email: "not-an-email",
        phone: "0446681800",
        shipping_address: { country: "XX", postal_code: "!!" },
        preferences: { language: "English", marketing_emails: "yes" },
        colour: "blue",
      }),
    );
    const problem = await expectInvalidFields(res, [
      "colour",
      "email",
      "name",
      "phone",
      "preferences.language",
      "preferences.marketing_emails",
      "shipping_address.country",
      "shipping_address.postal_code",
    ]);
    expect(problem.errors.find((e) => e.path === "colour")).toMatchObject({ message: 'unknown field "colour"' });
    expect(problem.detail).toMatch(/^8 problems in the request body: /);
    expect(await profileOf(secret)).toEqual(before);
  });

  it("checks the merged profile: an address missing its required parts, a name removed", async () => {
    const { secret } = await customer({ address: null });
    const res = await call("/v2/customer", json(secret, "PATCH", { shipping_address: { line2: "Flat 2" } }));
    await expectInvalidFields(res, [
      "shipping_address.city",
      "shipping_address.country",
      "shipping_address.line1",
      "shipping_address.postal_code",
    ]);
    const noName = await call("/v2/customer", json(secret, "PATCH", { name: null }));
    await expectInvalidFields(noName, ["name"]);
    expect((await profileOf(secret)).shipping_address).toBeNull();
  });

  it("refuses a stale If-Match with 412 naming the current ETag, and saves nothing", async () => {
    const { secret } = await customer({ address: null });
    expect((await call("/v2/customer", json(secret, "PATCH", { name: "First" }))).status).toBe(200);
    const res = await call("/v2/customer", json(secret, "PATCH", { name: "Second" }, { "If-Match": '"v1"' }));
    const problem = await expectProblem(res, 412, "precondition_failed");
    expect(problem.detail).toContain('"v2"');
    expect((await profileOf(secret)).name).toBe("First");
    const weak = await call("/v2/customer", json(secret, "PATCH", { name: "Third" }, { "If-Match": 'W/"v2"' }));
    await expectProblem(weak, 412, "precondition_failed");
  });

  it("lets only one of two edits based on the same ETag through", async () => {
    const { secret } = await customer({ address: null });
    const edits = await Promise.all(
      ["One", "Two"].map((name) => call("/v2/customer", json(secret, "PATCH", { name }, { "If-Match": '"v1"' }))),
    );
    expect(edits.map((res) => res.status).sort()).toEqual([200, 412]);
  });

  it("applies 20 concurrent patches without If-Match one after the other, none refused", async () => {
    const { secret } = await customer({ address: null });
    const start = await call("/v2/customer", { headers: bearer(secret) });
    const first = Number(headerOf(start, "ETag").match(/\d+/)?.[0]);
    const languages = Array.from({ length: 20 }, (_, i) => `l${String.fromCharCode(97 + i)}`);
    const edits = await Promise.all(languages.map((language) => patch(secret, { preferences: { language } })));
    expect(edits.map((res) => res.status)).toEqual(languages.map(() => 200));
    // Each saw the profile the one before it saved: 20 versions, one per patch, none lost.
    const etags = edits.map((res) => headerOf(res, "ETag")).sort();
    expect(etags).toEqual(languages.map((_, i) => `"v${first + i + 1}"`).sort());
    const final = await call("/v2/customer", { headers: bearer(secret) });
    expect(headerOf(final, "ETag")).toBe(`"v${first + 20}"`);
  });

  it("refuses a body that is not JSON, not an object, of another type, or too large", async () => {
    const { secret } = await customer({ address: null });
    await expectProblem(await call("/v2/customer", json(secret, "PATCH", "{not json")), 400, "bad_request");
    await expectProblem(await call("/v2/customer", json(secret, "PATCH", "[1,2]")), 400, "bad_request");
    const text = await call("/v2/customer", {
      method: "PATCH",
      headers: { ...bearer(secret), "Content-Type": "text/plain" },
      body: "name=Ada",
    });
    const refused = await expectProblem(text, 415, "unsupported_media_type");
    expect(refused.detail).toBe(
      'This endpoint reads JSON bodies only, not Content-Type "text/plain"; send JSON with Content-Type: application/json.',
    );
    const huge = await call("/v2/customer", json(secret, "PATCH", { name: "x".repeat(70_000) }));
    await expectProblem(huge, 413, "content_too_large");
    const unknownQuery = await call("/v2/customer?debug=1", json(secret, "PATCH", { name: "Ada" }));
    await expectProblem(unknownQuery, 400, "unknown_parameter");
    expect((await profileOf(secret)).name).toMatch(/^Test /);
  });
});
