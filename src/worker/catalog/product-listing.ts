/**
 * The profiles of one product, from the scope index: a product's entries are consecutive there
 * (scope order is product, then funnel), so a page of them is a walk over at most
 * LEAVES_PER_PAGE consecutive leaf pages. Bounded: at most LISTING_LIMIT profiles and that many
 * leaf reads per request (plus directory pages, usually in isolate memory); the rest comes
 * through the page's cursor (products.ts).
 */
import { parseScopeLine, scopeKey, type ScopedProfile } from "../../common/catalog/profile-index";
import type { IndexReader, LeafPosition } from "./index-reader";

export const LISTING_LIMIT = 100;
/** Two leaves can hold a product that straddles them; a third guarantees progress past a leaf with none of it. */
const LEAVES_PER_PAGE = 3;

export interface ProductPage {
  profiles: ScopedProfile[];
  /** True when the product has profiles after the last one of `profiles`. */
  more: boolean;
}

/** At most `limit` of the product's profiles in funnel order, after funnel `after` when given. */
export async function productPage(
  scope: IndexReader,
  productKey: string,
  after: string | undefined,
  limit: number,
): Promise<ProductPage> {
  // Every key of the product lies strictly between `${product} ` and `${product}!` (' ' < '!' < any key character).
  const low = after === undefined ? `${productKey} ` : scopeKey(productKey, after);
  const high = `${productKey}!`;
  let position: LeafPosition = (await scope.leafAtOrBefore(low)) ?? { segment: 0, leaf: 0 };
  const profiles: ScopedProfile[] = [];
  for (let reads = 1; ; reads++) {
    for (const line of await scope.leafLines(position)) {
      const profile = parseScopeLine(line);
      const key = scopeKey(profile.productKey, profile.funnelKey);
      if (key <= low) continue;
      if (key >= high) return { profiles, more: false };
      if (profiles.length === limit) return { profiles, more: true };
      profiles.push(profile);
    }
    const next = await scope.next(position);
    if (!next || next.first >= high) return { profiles, more: false };
    if (profiles.length === limit || reads === LEAVES_PER_PAGE) return { profiles, more: true };
    position = next.position;
  }
}
