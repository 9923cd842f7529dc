/**
 * `npm run operator -- usage` prints GET /operator/v1/usage as tables (src/node/operator/usage-command.ts):
 * per deployment its totals with the refusals before authentication by code, then each ranking.
 */
import { describe, expect, it } from "vitest";
import type { DeploymentUsage } from "../../src/node/operator/operator-client";
import { usageTables } from "../../src/node/operator/usage-command";

const usage: DeploymentUsage = {
  deployment: "production",
  from: "2026-11-27T16:00:00.000Z",
  to: "2026-11-28T16:00:00.000Z",
  granularity: "hour",
  totals: {
    requests: 55,
    by_status: { "200": 30, "400": 20, "429": 5 },
    by_code: { unknown_parameter: 20, rate_limited: 5 },
    bytes: 9000,
  },
  series: [{ start: "2026-11-28T15:00:00.000Z", requests: 55, errors: 25, rate_limited: 5 }],
  unauthenticated: { requests: 3, by_status: { "401": 3 }, by_code: { invalid_api_key: 3 } },
  top_accounts: { by_requests: [{ account_id: "acct_a", requests: 55, errors: 25 }], by_errors: [] },
  top_keys: {
    by_requests: [{ account_id: "acct_a", key_id: "key_live_a", requests: 30, errors: 0 }],
    by_errors: [{ account_id: "acct_a", key_id: "key_live_b", requests: 25, errors: 25 }],
  },
};

describe("operator usage tables", () => {
  it("prints the totals, the refusals by code and every ranking", () => {
    const text = usageTables([usage]);
    const [totals, ...rankings] = text.split("\n\n");
    expect(totals).toMatch(
      /production .* 55 +25 +5 +9000 +unknown_parameter 20, rate_limited 5 +3 \(invalid_api_key 3\)/,
    );
    expect(rankings).toHaveLength(4);
    expect(rankings[1]).toBe("Top accounts by errors: none");
    expect(rankings[3]).toContain("key_live_b");
  });
});
