/**
 * Builds a release's two indexes while the merge writes the document (docs/contract.md "Release index").
 * Profiles arrive in document order, which is scope order: the scope index is written as they come.
 * The id index needs id order: its entries go through an external sort (id-sort.ts) and are
 * written once the document is.
 */
import path from "node:path";
import type { ReleaseIndex } from "../../../common/catalog/manifest";
import { scopeKey, scopeLine, type ScopedProfile } from "../../../common/catalog/profile-index";
import { IndexWriter } from "./index-writer";
import { IdSort } from "./id-sort";

export class ReleaseIndexBuilder {
  private readonly scope: IndexWriter;
  private readonly ids: IdSort;

  /** `releaseDir` receives `index/<name>/<n>`; `scratchDir` the id index's sort runs. */
  constructor(
    private readonly releaseDir: string,
    scratchDir: string,
    private readonly pageBytes: number,
  ) {
    this.scope = new IndexWriter(path.join(releaseDir, "index", "scope"), "scope", pageBytes);
    this.ids = new IdSort(scratchDir);
  }

  /** The next profile in document order. */
  add(profile: ScopedProfile): void {
    this.scope.add(scopeKey(profile.productKey, profile.funnelKey), scopeLine(profile));
    this.ids.add(profile);
  }

  /** Writes the id index; the manifest's `index`. */
  finish(): ReleaseIndex[] {
    const scope = this.scope.finish();
    const ids = new IndexWriter(path.join(this.releaseDir, "index", "id"), "id", this.pageBytes);
    for (const line of this.ids.sorted()) ids.addBytes(line);
    return [scope, ids.finish()];
  }
}
