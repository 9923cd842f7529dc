/**
 * The product or funnel keys of a release that start with a prefix, in key order, from the query
 * tables' (release, key) indexes: what a host offers as completions of a resource template's
 * `product` and `funnel` (docs/mcp.md, "Resources").
 */
import { hexOf, type Manifest } from "../../../common/catalog/manifest";
import { prefixUpperBound } from "../prefix-range";
import { queryRelease } from "../query-db";

export type KeyField = "product" | "funnel";

const COLUMN: Record<KeyField, string> = { product: "product_key", funnel: "funnel_key" };

/** At most `limit` distinct keys of `field` starting with `prefix`; funnels of one product when `product` is given. */
export async function keysStartingWith(
  env: { CATALOG_DB: D1Database },
  manifest: Manifest,
  asked: { field: KeyField; prefix: string; limit: number; product?: string },
): Promise<string[]> {
  const column = COLUMN[asked.field];
  const upper = prefixUpperBound(asked.prefix);
  const where = [`release = ?`, `${column} >= ?`];
  const args: (string | number)[] = [hexOf(manifest.release_id), asked.prefix];
  if (upper !== null) {
    where.push(`${column} < ?`);
    args.push(upper);
  }
  if (asked.product !== undefined) {
    where.push("product_key = ?");
    args.push(asked.product);
  }
  const text = `SELECT DISTINCT ${column} AS key FROM query_profiles WHERE ${where.join(" AND ")} ORDER BY key LIMIT ?`;
  const { results } = await queryRelease(env.CATALOG_DB, manifest, [{ text, args: [...args, asked.limit] }]);
  return (results[0] ?? []).map((row) => String(row.key));
}
