/**
 * The one 404 of the profile routes (lookups and product listings). Its detail names the release
 * it looked in and points only to a URL that answers: the product's listing when the release has
 * the product, else the release's product listing.
 */
import { Problem } from "../http/problem";
import type { Manifest } from "../../common/catalog/manifest";
import type { IndexReader } from "./index-reader";
import { productPage } from "./product-listing";
import { productProfilesPath } from "./profile-representation";
import { releasePath } from "./representation";

export type ProfileMiss = { productKey: string; funnelKey?: string } | { id: string };

export async function profileNotFound(scope: IndexReader, manifest: Manifest, miss: ProfileMiss): Promise<Problem> {
  const release = `Release ${manifest.release_id}`;
  let detail: string;
  if ("id" in miss) detail = `${release} has no profile with id ${miss.id}.`;
  else {
    const what =
      miss.funnelKey === undefined
        ? `for product "${miss.productKey}"`
        : `for product "${miss.productKey}" and funnel "${miss.funnelKey}"`;
    // Every key of the product sorts before `${product}!`: when the index starts after that, it has
    // none, and the manifest's segment keys say so without reading storage.
    const hasProduct =
      miss.funnelKey !== undefined &&
      (await scope.leafAtOrBefore(`${miss.productKey}!`)) !== undefined &&
      (await productPage(scope, miss.productKey, undefined, 1)).profiles.length > 0;
    detail = hasProduct
      ? `${release} has no profile ${what}; GET ${productProfilesPath(manifest.release_id, miss.productKey)} lists the product's funnels.`
      : `${release} has no profile ${what}: it has no product "${miss.productKey}". GET ${releasePath(manifest.release_id)}/products lists its products.`;
  }
  return new Problem("profile_not_found", detail, {
    headers: { "Catalog-Release": manifest.release_id },
    extra: { release_id: manifest.release_id },
  });
}
