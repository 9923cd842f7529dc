/**
 * The pure cores of orders and profiles: JSON merge patch against RFC 7396's own examples
 * (Appendix A), and the order state machine's whole table.
 */
import { describe, expect, it } from "vitest";
import { mergePatch } from "../../src/worker/customers/merge-patch";
import { nextStatus, ORDER_STATUSES, type OrderAction } from "../../src/worker/orders/state-machine";

// RFC 7396 Appendix A: original, patch, result.
const RFC_7396_EXAMPLES: [unknown, unknown, unknown][] = [
  [{ a: "b" }, { a: "c" }, { a: "c" }],
  [{ a: "b" }, { b: "c" }, { a: "b", b: "c" }],
  [{ a: "b" }, { a: null }, {}],
  [{ a: "b", b: "c" }, { a: null }, { b: "c" }],
  [{ a: ["b"] }, { a: "c" }, { a: "c" }],
  [{ a: "c" }, { a: ["b"] }, { a: ["b"] }],
  [{ a: { b: "c" } }, { a: { b: "d", c: null } }, { a: { b: "d" } }],
  [{ a: [{ b: "c" }] }, { a: [1] }, { a: [1] }],
  [
    ["a", "b"],
    ["c", "d"],
    ["c", "d"],
  ],
  [{ a: "b" }, ["c"], ["c"]],
  [{ a: "foo" }, null, null],
  [{ a: "foo" }, "bar", "bar"],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: "b", c: null }, { a: "b" }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

describe("mergePatch (RFC 7396)", () => {
  it.each(RFC_7396_EXAMPLES)("%j patched with %j is %j", (original, patch, result) => {
    expect(mergePatch(original, patch)).toEqual(result);
  });

  it("leaves the original untouched", () => {
    const original = { a: { b: "c" } };
    mergePatch(original, { a: { b: null } });
    expect(original).toEqual({ a: { b: "c" } });
  });
});

describe("the order state machine", () => {
  const table: Record<OrderAction, Record<(typeof ORDER_STATUSES)[number], string | null>> = {
    cancel: { pending: "cancelled", paid: "cancelled", shipped: null, cancelled: null },
    advance: { pending: "paid", paid: "shipped", shipped: null, cancelled: null },
  };
  it.each(Object.keys(table) as OrderAction[])("%s moves exactly as docs/orders.md's table says", (action) => {
    for (const status of ORDER_STATUSES) expect(nextStatus(status, action), status).toBe(table[action][status]);
  });
});
