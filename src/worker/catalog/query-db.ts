/**
 * Reads of the query tables through the D1 Sessions API: one session per request, so every
 * statement of an answer sees the same state, served by a nearby replica when it has the release.
 * A release's rows are immutable once its `query_releases` line exists, so any replica that has the
 * line answers exactly as the primary; one that does not have it yet (a publish just loaded it) is
 * asked again through the primary before the release is called not loaded.
 */
import { Problem } from "../http/problem";
import { hexOf, type Manifest } from "../../common/catalog/manifest";
import type { Sql } from "./query-plan";
import { retryTransient } from "../../common/transient";

export interface LoadedRelease {
  profile_count: number;
  product_count: number;
}

/** The release's line, then each statement's rows, in one batch (one round trip). */
export async function queryRelease(
  db: D1Database,
  manifest: Manifest,
  statements: Sql[],
): Promise<{ release: LoadedRelease; results: Record<string, unknown>[][] }> {
  const release = hexOf(manifest.release_id);
  for (const constraint of ["first-unconstrained", "first-primary"] as const) {
    const session = db.withSession(constraint);
    const batch = [
      session.prepare("SELECT profile_count, product_count FROM query_releases WHERE release = ?").bind(release),
      ...statements.map((sql) => session.prepare(sql.text).bind(...sql.args)),
    ];
    // SQLITE_BUSY while a publish loads rows, a lost commit token: tried again, then 503 (transient.ts).
    const [line, ...results] = await retryTransient(() => session.batch<Record<string, unknown>>(batch));
    const loaded = line?.results[0] as LoadedRelease | undefined;
    if (loaded) return { release: loaded, results: results.map((result) => result.results) };
  }
  throw new Problem(
    "release_not_queryable",
    `Release ${manifest.release_id} is not loaded for queries: it was published before queries existed, or is no longer kept. ` +
      "Publish its build again; GET /v1/releases/current names the current release.",
    { headers: { "Catalog-Release": manifest.release_id }, extra: { release_id: manifest.release_id } },
  );
}
