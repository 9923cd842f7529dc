/**
 * Each scope in the plain words a customer reads on the consent page (and the table of docs/oauth.md).
 * `admin` says plainly that an operator has to approve it.
 */
import type { Scope } from "../../../common/auth/scopes";

export const SCOPE_WORDS = {
  "read:catalog": "Read the readiness catalog",
  "read:cheeses": "Browse the cheese catalog",
  "read:orders": "See your order history",
  "write:orders": "Place and change orders for you",
  "read:profile": "See your customer profile",
  "write:profile": "Change your customer profile",
  "manage:webhooks": "Register and remove webhooks that tell you when the catalog is published",
  admin: "Full access to your account — only after an operator approves it",
} as const satisfies Record<Scope, string>;
