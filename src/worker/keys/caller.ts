/**
 * The key behind a /v1/keys request. Keys manage keys: an OAuth access token acts for a customer
 * through an app and may not create or revoke the account's API keys.
 */
import type { Context } from "hono";
import type { Principal } from "../auth/principal";
import type { AppEnv } from "../http/context";
import { Problem } from "../http/problem";

export function callingKey(c: Context<AppEnv>): Principal {
  const principal = c.get("principal");
  if (principal.kind !== "api_key") {
    throw new Problem(
      "forbidden",
      "API keys are managed with an API key of the account; OAuth access tokens cannot manage keys.",
    );
  }
  return principal;
}
