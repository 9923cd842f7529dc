/**
 * `limit`, the one page-size parameter of every list route (docs/contract.md, "Lists"): decimal
 * digits only, so `0x10`, `1e1`, ` 5` and `5.0` are refused rather than read as numbers, within
 * the route's range; each route sets its own maximum and default.
 */
import { z } from "@hono/zod-openapi";

const DECIMAL = /^[1-9][0-9]{0,8}$/;

interface LimitRange {
  /** What one entry of the page is, for the description ("Profiles", "Orders"). */
  what: string;
  max: number;
}

const limitText = ({ max }: LimitRange) =>
  z
    .string({ error: "must be given once" })
    .refine(
      (text) => DECIMAL.test(text) && Number(text) <= max,
      `must be an integer from 1 to ${max} in decimal digits`,
    )
    .transform(Number);

const limitDoc = (range: LimitRange, fallback: string) => ({
  param: { name: "limit", in: "query" as const },
  description: `${range.what} per page, 1–${range.max} (${fallback}).`,
});

/** `limit` with the route's default page size when absent. */
export const limitParam = (range: LimitRange & { default: number }) =>
  limitText(range)
    .default(range.default)
    .openapi({ ...limitDoc(range, `default ${range.default}`), example: String(range.default) });

/** `limit` of a list that, without it, answers every entry (GET /v1/keys). */
export const optionalLimitParam = (range: LimitRange) =>
  limitText(range)
    .optional()
    .openapi({ ...limitDoc(range, "without it, every one"), example: String(range.max) });
