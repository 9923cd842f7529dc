/**
 * Path and query parameters of the profile lookup routes, and the hook that turns a malformed one
 * into the precise 400 problem naming it (release ids and the rest: params.ts).
 */
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { Problem } from "../http/problem";
import { rejectUnknownQuery } from "../http/strict-query";
import { KEY_PATTERN, PROFILE_ID_PATTERN } from "../../common/catalog/schema";
import { paramProblem, quoted } from "./params";

const scopeKeyParam = (name: string, what: string, example: string) =>
  z
    .string()
    .regex(KEY_PATTERN)
    .openapi({
      param: { name, in: "path" },
      description: `The profile's \`scope.${what}.key\`: lowercase words joined by hyphens.`,
      example,
    });

export const ProductKeyParam = scopeKeyParam("product_key", "product", "northwind-payments-api");
export const FunnelKeyParam = scopeKeyParam("funnel_key", "funnel", "checkout");

export const ProfileIdParam = z
  .string()
  .regex(PROFILE_ID_PATTERN)
  .openapi({
    param: { name: "agent_readiness_profile_id", in: "path" },
    description: "`arp_` followed by 26 lowercase letters or digits.",
    example: "arp_kfa3bdccf91c711393576bf510",
  });

/** Route hook: names the first malformed parameter. */
export function profileParamProblem(
  result: { target: string; success: boolean; error?: unknown },
  c: Context,
): undefined {
  if (result.success) return undefined;
  rejectUnknownQuery(result);
  const id = c.req.param("agent_readiness_profile_id");
  if (id !== undefined && !PROFILE_ID_PATTERN.test(id)) {
    throw new Problem(
      "invalid_profile_id",
      `${quoted(id)} is not a profile id: expected arp_ followed by 26 lowercase letters or digits. ` +
        "To look a profile up by scope, use /v1/profiles/{product_key}/{funnel_key}.",
    );
  }
  for (const [name, value] of [
    ["product_key", c.req.param("product_key")],
    ["funnel_key", c.req.param("funnel_key")],
  ] as const) {
    if (value !== undefined && !KEY_PATTERN.test(value)) {
      throw new Problem(
        "invalid_scope_key",
        `${name} ${quoted(value)} is not a product or funnel key: expected lowercase letters and digits in words joined by hyphens (e.g. payments-api).`,
      );
    }
  }
  return paramProblem(result, c);
}
