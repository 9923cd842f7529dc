/**
 * Path parameters of the catalog routes: zod schemas for validation and the OpenAPI document,
 * and the hook that turns a failure into the precise 400 problem for that parameter.
 */
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { Problem } from "../http/problem";
import { rejectUnknownQuery } from "../http/strict-query";
import { RELEASE_ID, releaseIdOf } from "./service/release";

const PART_NUMBER = /^(0|[1-9][0-9]{0,8})$/;

/** The release id of the document's examples; /openapi.json names the current release instead (src/worker/docs/served-examples.ts). */
export const EXAMPLE_RELEASE_ID = "sha256:4f0c4e3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d";

export const ReleaseIdParam = z
  .string()
  .regex(RELEASE_ID)
  .transform(releaseIdOf)
  .openapi({
    param: { name: "release_id", in: "path" },
    description: "A release id, `sha256:<64 lowercase hex>` or just the 64 hex digits.",
    example: EXAMPLE_RELEASE_ID,
  });

export const PartNumberParam = z
  .string()
  .regex(PART_NUMBER)
  .transform(Number)
  .openapi({
    param: { name: "n", in: "path" },
    description: "Part number, 0-based, in decimal without leading zeros.",
    example: "0",
  });

/** Route hook: a malformed release id or part number is a 400 naming the parameter and the value. */
export function paramProblem(result: { target: string; success: boolean; error?: unknown }, c: Context): undefined {
  if (result.success) return undefined;
  rejectUnknownQuery(result);
  const releaseId = c.req.param("release_id");
  if (releaseId !== undefined && !RELEASE_ID.test(releaseId)) {
    throw new Problem(
      "invalid_release_id",
      `${quoted(releaseId)} is not a release id: expected sha256: followed by 64 lowercase hex digits (the sha256: prefix is optional).`,
    );
  }
  const part = c.req.param("n");
  if (part !== undefined && !PART_NUMBER.test(part)) {
    throw new Problem(
      "invalid_part_number",
      `${quoted(part)} is not a part number: expected a non-negative decimal integer without leading zeros (0, 1, 2, …).`,
    );
  }
  throw new Problem("bad_request", "The request's path parameters are invalid.");
}

/** The value as sent, shortened: a detail names what was wrong without echoing arbitrary input at length. */
export function quoted(value: string): string {
  return value.length > 80 ? `${JSON.stringify(value.slice(0, 80))}…` : JSON.stringify(value);
}
