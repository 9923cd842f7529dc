/**
 * An order's states and the moves between them (docs/orders.md "States"). Pure: the order book
 * asks `nextStatus` and refuses what it returns null for (409 `invalid_state_transition`).
 *
 *   pending ──advance──▶ paid ──advance──▶ shipped
 *      └──cancel──▶ cancelled ◀──cancel──┘
 */
export const ORDER_STATUSES = ["pending", "paid", "shipped", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** `cancel`: the customer's, while not shipped. `advance`: the sandbox's test helper (payment, then shipping). */
export type OrderAction = "cancel" | "advance";

const MOVES: Record<OrderAction, Partial<Record<OrderStatus, OrderStatus>>> = {
  cancel: { pending: "cancelled", paid: "cancelled" },
  advance: { pending: "paid", paid: "shipped" },
};

export function nextStatus(status: OrderStatus, action: OrderAction): OrderStatus | null {
  return MOVES[action][status] ?? null;
}

/** The statuses an action may start from, for the refusal's detail. */
export const startsOf = (action: OrderAction): OrderStatus[] => Object.keys(MOVES[action]) as OrderStatus[];
