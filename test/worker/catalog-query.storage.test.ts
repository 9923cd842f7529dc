/**
 * Where a query's answer comes from (docs/storage.md, "Catalog query tables"): a page's profiles
 * are read from their `query_bodies` rows in D1, exactly their bytes in the document, and from the
 * parts only for a release loaded before bodies were kept; a one-value filter's page is read through
 * that filter's index, not by walking the release.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { toHex } from "../../src/common/catalog/digest";
import { expectDefined } from "../../src/common/expect";
import { hexOf, storageKeys } from "../../src/common/catalog/manifest";
import type { IndexName } from "../../src/common/catalog/profile-index";
import { loadQueryTables } from "../../src/node/catalog/query-load";
import { scopeEntries } from "../../src/node/catalog/query-profiles";
import { countSql, pageSql } from "../../src/worker/catalog/query-plan";
import { profileQueryOf } from "../../src/worker/catalog/query-params";
import { api } from "./support/api";
import { oracleProfiles, oracleQuery } from "./support/query-oracle";
import { indexSegmentBytes, manifestPart, publish, testRelease } from "./support/releases";
import { resetStorage } from "./support/reset-storage";

const generated = testRelease("generated");
const all = oracleProfiles(generated);
const release = hexOf(generated.manifest.release_id);
const PATH = "/v1/profiles?grade=B%2B&sort=-last_tested_at&limit=100";

/** The page's profiles as they stand in its body, checked against the document's bytes. */
async function pageTexts(path: string): Promise<string[]> {
  const res = await api(path);
  expect(res.status, path).toBe(200);
  const text = await res.text();
  const expected = oracleQuery(all, { grade: "B+", sort: "-last_tested_at" }).slice(0, 100);
  expect(expected.length).toBeGreaterThan(20);
  for (const profile of expected) expect(text).toContain(profile.text);
  const body = JSON.parse(text) as { data: unknown[] };
  expect(body.data.map((item) => JSON.stringify(item))).toEqual(expected.map((p) => p.text));
  return expected.map((p) => p.text);
}

/**
 * Storage is reset before a test only after a test that changed the loaded release: the others
 * read it as `publish(generated)` left it (publishing it again loads nothing), so the release is
 * loaded into D1 three times in this file instead of seven.
 */
let changed = true;
beforeEach(async () => {
  if (!changed) return;
  await resetStorage();
  changed = false;
});
/** Marks the test as one that changes the loaded release: the next test starts from empty storage. */
const changesStorage = () => {
  changed = true;
};

describe("a page's profiles", () => {
  it("are loaded into D1 at publish, exactly their bytes in the document", { timeout: 60_000 }, async () => {
    await publish(generated);
    const { results } = await env.CATALOG_DB.prepare(
      "SELECT p.sha256, b.body FROM query_profiles p JOIN query_bodies b USING (release, seq) WHERE release = ? ORDER BY seq",
    )
      .bind(release)
      .all<{ sha256: string; body: string }>();
    expect(results).toHaveLength(generated.manifest.profile_count);
    const encoder = new TextEncoder();
    for (const row of results) {
      const digest = await crypto.subtle.digest("SHA-256", encoder.encode(row.body));
      expect(toHex(digest)).toBe(row.sha256);
    }
  });

  it("keep quotes and U+E000 exactly (quotes cross the proxy as U+E000)", { timeout: 60_000 }, async () => {
    // Loaded into empty tables (the test before leaves the release loaded), and left changed.
    await resetStorage();
    changesStorage();
    // One finding's first three bytes become U+E000 (three bytes too): the offsets stay right.
    const document = generated.document.slice();
    const finding = new TextEncoder().encode('"finding":"');
    const at = document.findIndex((_, i) => finding.every((byte, k) => document[i + k] === byte)) + finding.length;
    expect(at).toBeGreaterThan(finding.length);
    document.set([0xee, 0x80, 0x80], at);
    const source = {
      manifest: generated.manifest,
      readPart: async (index: number) => {
        const part = manifestPart(generated.manifest, index);
        return document.subarray(part.offset, part.offset + part.length);
      },
      readIndexSegment: async (name: IndexName, index: number) => indexSegmentBytes(generated, name, index),
    };
    await loadQueryTables(env.CATALOG_DB, generated.manifest, source);

    const { results } = await env.CATALOG_DB.prepare("SELECT body FROM query_bodies WHERE release = ? ORDER BY seq")
      .bind(release)
      .all<{ body: string }>();
    const decoder = new TextDecoder();
    const expected = (await scopeEntries(generated.manifest, source)).map((entry) =>
      decoder.decode(document.subarray(entry.offset, entry.offset + entry.length)),
    );
    expect(expected.filter((text) => text.includes("\uE000"))).toHaveLength(1);
    expect(results.map((row) => row.body)).toEqual(expected);
  });

  it("of a release loaded before bodies were kept come from its parts", { timeout: 60_000 }, async () => {
    changesStorage();
    await publish(generated);
    await env.CATALOG_DB.prepare("DELETE FROM query_bodies WHERE release = ?").bind(release).run();
    await pageTexts(PATH);
  });
});

describe("a one-value filter's page", () => {
  const planOf = async (params: Record<string, string[]>) => {
    const sql = pageSql(release, profileQueryOf({ sort: "catalog", limit: 20, ...params }));
    const { results } = await env.CATALOG_DB.prepare(`EXPLAIN QUERY PLAN ${sql.text}`)
      .bind(...sql.args)
      .all<{ detail: string }>();
    return results.map((row) => row.detail).join("\n");
  };

  it("is read through the filter's index, never by walking the release", { timeout: 60_000 }, async () => {
    await publish(generated);
    const product = expectDefined(all[17], "profile 17").profile.scope.product.key;
    expect(await planOf({ product: [product] })).toMatch(
      /INDEX query_profiles_product \(release=\? AND product_key=\?\)/,
    );
    expect(await planOf({ "stage.pay": ["limited"] })).toMatch(
      /INDEX query_profiles_stage_pay \(release=\? AND stage_pay=\?\)/,
    );
  });
});

describe("a `q` query", () => {
  const Q = { q: "api", sort: "-grade" };
  const path = "/v1/profiles?q=api&sort=-grade&limit=100";
  const expectOracle = async () => {
    const res = await api(path);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { count: number; data: { agent_readiness_profile_id: string }[] };
    const expected = oracleQuery(all, Q);
    expect(expected.length).toBeGreaterThan(0);
    expect(body.count).toBe(expected.length);
    expect(body.data.map((p) => p.agent_readiness_profile_id)).toEqual(
      expected.slice(0, 100).map((p) => p.profile.agent_readiness_profile_id),
    );
  };

  it("reads its release's words as a rowid range of query_words, not each match's release", {
    timeout: 60_000,
  }, async () => {
    await publish(generated);
    await expectOracle();
    const sql = pageSql(release, profileQueryOf({ sort: "catalog", limit: 20, q: "api" }));
    const { results } = await env.CATALOG_DB.prepare(`EXPLAIN QUERY PLAN ${sql.text}`)
      .bind(...sql.args)
      .all<{ detail: string }>();
    const words = results.map((row) => row.detail).find((detail) => detail.includes("query_words"));
    // FTS5's index string: M for the MATCH, > and < for the rowid range it serves itself.
    expect(words).toMatch(/VIRTUAL TABLE INDEX \d+:M.*>.*</);
  });

  it("alone is counted in the word tables, without a lookup of each match's row", { timeout: 60_000 }, async () => {
    await publish(generated);
    await expectOracle();
    const sql = countSql(release, profileQueryOf({ sort: "catalog", q: "api" }));
    const { results } = await env.CATALOG_DB.prepare(`EXPLAIN QUERY PLAN ${sql.text}`)
      .bind(...sql.args)
      .all<{ detail: string }>();
    const plan = results.map((row) => row.detail).join("\n");
    expect(plan).toContain("query_words");
    expect(plan).not.toContain("query_profiles");
  });

  it("of a release loaded before release numbers reads query_text", { timeout: 60_000 }, async () => {
    changesStorage();
    await publish(generated);
    await env.CATALOG_DB.batch([
      env.CATALOG_DB.prepare(
        "INSERT INTO query_text (release, seq, body) SELECT ?1, rowid & 4294967295, body FROM query_words",
      ).bind(release),
      env.CATALOG_DB.prepare("DELETE FROM query_words"),
      env.CATALOG_DB.prepare("DELETE FROM query_release_numbers"),
    ]);
    await expectOracle();
  });
});

// Last: local R2 does not take the deleted parts back cleanly in a later test's publish.
describe("a page's profiles, the parts gone", () => {
  it("are read from D1: the page is still answered", { timeout: 60_000 }, async () => {
    changesStorage();
    await publish(generated);
    for (const index of generated.manifest.parts.keys()) await env.RELEASES.delete(storageKeys.part(release, index));
    await pageTexts(PATH);
  });
});
