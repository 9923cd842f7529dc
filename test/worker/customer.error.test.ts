/** PATCH /v2/customer refusals: every problem at once, stale tags, bad bodies; nothing saved. */
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { createAccount } from "../../src/worker/auth/accounts";
import { bearer, call, newKey } from "./auth-fixtures";
import { customer, type CustomerView, json } from "./orders-support";
import { expectProblem } from "./support/problems";

interface ValidationProblem {
  detail: string;
  errors: { path: string; message: string; code: string }[];
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
    const problem = (await expectProblem(res, 400, "bad_request")) as unknown as ValidationProblem;
    expect(problem.errors.map((e) => e.path)).toEqual(["name"]);
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
    const problem = (await expectProblem(res, 400, "bad_request")) as unknown as ValidationProblem;
    expect(problem.errors.map((e) => e.path).sort()).toEqual([
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
    const problem = (await expectProblem(res, 400, "bad_request")) as unknown as ValidationProblem;
    expect(problem.errors.map((e) => e.path).sort()).toEqual([
      "shipping_address.city",
      "shipping_address.country",
      "shipping_address.line1",
      "shipping_address.postal_code",
    ]);
    const noName = await call("/v2/customer", json(secret, "PATCH", { name: null }));
    const named = (await expectProblem(noName, 400, "bad_request")) as unknown as ValidationProblem;
    expect(named.errors.map((e) => e.path)).toEqual(["name"]);
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
