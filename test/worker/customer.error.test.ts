/**
 * PATCH /v2/customer refused: every problem at once, stale tags, bad bodies; nothing saved. The
 * answers: customer.happy.test.ts.
 */
import { describe, expect, it } from "vitest";
import { bearer, call } from "./auth-fixtures";
import { expectInvalidFields, patch, profileOf } from "./customer-support";
import { customer, json } from "./orders-support";
import { headerOf } from "./support/api";
import { expectProblem } from "./support/problems";

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
