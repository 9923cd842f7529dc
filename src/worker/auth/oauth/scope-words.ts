/**
 * Each scope in the plain words a customer reads on the consent page (and the table of docs/oauth.md).
 * Each names what the app will be able to do; `admin` says it implies all the others and that an operator has to approve it.
 */
import type { Scope } from "../../../common/auth/scopes";

export const SCOPE_WORDS = {
  "read:catalog": "Read the readiness catalog",
  "read:cheeses": "Browse the cheese catalog",
  "read:orders": "See your cheese orders: items, totals, status and shipping address",
  "write:orders": "Place cheese orders in your name and cancel them before they ship",
  "read:profile": "See your profile: name, contact email, phone, shipping address and preferences",
  "write:profile": "Change your profile: name, contact email, phone, shipping address and preferences",
  "manage:webhooks": "Register and remove webhooks that tell you when the catalog is published",
  "read:usage": "See how many requests your keys and apps made, and their recent errors",
  "read:watches": "See your watches of catalog profiles and the changes they caught",
  "write:watches": "Create and delete watches that tell you when catalog profiles you care about change",
  admin: "Full access to your account: everything every other permission allows — only after an operator approves it",
} as const satisfies Record<Scope, string>;
