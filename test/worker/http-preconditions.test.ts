/**
 * If-Match on the routes that send no validator (/v1/keys, /v2/cheeses): no entity tag can match,
 * so a listed tag fails before anything changes (RFC 9110 §13.1.1: 412); `*` holds.
 */
import { describe, expect, it } from "vitest";
import { accountWithKey, bearer, call } from "./auth-fixtures";
import { expectProblem } from "./support/problems";

const TAG = '"key_live_AAAAAAAAAAAAAAAAAAAA"';
const keysOf = async (secret: string) =>
  (await (await call("/v1/keys", { headers: bearer(secret) })).json<{ data: { id: string; status: string }[] }>()).data;

describe("If-Match where no ETag is ever sent", () => {
  it("DELETE /v1/keys/{id} with a tag → 412 and the key stays active; with * it is revoked", async () => {
    const { secret, key } = await accountWithKey();
    const refused = await call(`/v1/keys/${key.id}`, {
      method: "DELETE",
      headers: { ...bearer(secret), "If-Match": TAG },
    });
    const problem = await expectProblem(refused, 412, "precondition_failed");
    expect(problem.detail).toMatch(/no ETag/);
    expect((await keysOf(secret))[0]!.status).toBe("active");
    const revoked = await call(`/v1/keys/${key.id}`, {
      method: "DELETE",
      headers: { ...bearer(secret), "If-Match": "*" },
    });
    expect(revoked.status).toBe(200);
  });

  it("POST /v1/keys with a tag → 412 and no key is created", async () => {
    const { secret } = await accountWithKey();
    const headers = { ...bearer(secret), "Content-Type": "application/json", "If-Match": TAG };
    await expectProblem(await call("/v1/keys", { method: "POST", headers, body: "{}" }), 412, "precondition_failed");
    expect(await keysOf(secret)).toHaveLength(1);
  });

  it.each(["/v1/keys", "/v2/cheeses"])("GET %s with a tag → 412; with * → 200", async (path) => {
    const { secret } = await accountWithKey();
    await expectProblem(
      await call(path, { headers: { ...bearer(secret), "If-Match": TAG } }),
      412,
      "precondition_failed",
    );
    expect((await call(path, { headers: { ...bearer(secret), "If-Match": "*" } })).status).toBe(200);
  });

  it("authentication comes first: no credential is still 401", async () => {
    expect((await call("/v1/keys", { headers: { "If-Match": TAG } })).status).toBe(401);
  });
});
