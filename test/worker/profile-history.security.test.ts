/** The history routes are catalog routes: a credential with read:catalog, or 401/403 before anything is read. */
import { describe, expect, it } from "vitest";
import { accountWithKey, bearer, call } from "./auth-fixtures";

const PATHS = [
  "/v1/profiles/northwind-payments-api/checkout/history",
  "/v1/profiles/arp_kfa3bdccf91c711393576bf510/history",
  `/v1/releases/sha256:${"ab".repeat(32)}/changes/summary?since=sha256:${"cd".repeat(32)}`,
];

describe("history routes: authentication and scope", () => {
  it("401 without a credential or with a malformed one", async () => {
    for (const path of PATHS) {
      expect([path, (await call(path)).status]).toEqual([path, 401]);
      expect([path, (await call(path, { headers: bearer("sk_test_nope") })).status]).toEqual([path, 401]);
    }
  });

  it("403 insufficient_scope for a key without read:catalog", async () => {
    const key = await accountWithKey({ scopes: ["read:orders"] });
    for (const path of PATHS) {
      const res = await call(path, { headers: bearer(key.secret) });
      expect([path, res.status]).toEqual([path, 403]);
      expect(res.headers.get("WWW-Authenticate")).toContain('scope="read:catalog');
    }
  });
});
