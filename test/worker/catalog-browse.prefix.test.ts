/**
 * GET /v1/products?q=: the prefix range must hold every name that starts with q, whatever character
 * follows it, including one outside the Basic Multilingual Plane (an emoji is 4 UTF-8 bytes, above
 * the 3 of U+FFFF, the bound the range once used).
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { hexOf } from "../../src/common/catalog/manifest";
import { api } from "./support/api";
import { publish, testRelease } from "./support/releases";

const base = testRelease("base");
const releaseId = base.manifest.release_id;

/** Names after the prefix "x": a BMP letter, U+FFFF itself, an emoji, the last code point. */
const NAMES = ["Xa Corp", "X\uffff Corp", "X😀 Emoji Corp", "X\u{10ffff} Corp", "Y Corp"];

describe("q= with characters outside the BMP", () => {
  beforeAll(async () => {
    await publish(base);
    // Rows as the publish load writes them (query-load.ts): lower_name is the lower-cased name.
    const insert = env.CATALOG_DB.prepare(
      "INSERT INTO query_products (release, product_key, name, lower_name, funnel_count) VALUES (?, ?, ?, ?, 1)",
    );
    await env.CATALOG_DB.batch(
      NAMES.map((name, i) => insert.bind(hexOf(releaseId), `zz-prefix-${i}`, name, name.toLowerCase())),
    );
  }, 60_000);

  it("finds every name that starts with q, and none that does not", async () => {
    const res = await api(`/v1/releases/${releaseId}/products?q=x&limit=100`);
    expect(res.status).toBe(200);
    const { data } = await res.json<{ data: { name: string }[] }>();
    const names = data.map((product) => product.name).filter((name) => NAMES.includes(name));
    expect(names.sort()).toEqual(NAMES.filter((name) => name.startsWith("X")).sort());
  });

  it("keeps a q that ends in an emoji a prefix of its own", async () => {
    const res = await api(`/v1/releases/${releaseId}/products?q=${encodeURIComponent("x😀")}`);
    const { data } = await res.json<{ data: { name: string }[] }>();
    expect(data.map((product) => product.name)).toEqual(["X😀 Emoji Corp"]);
  });
});
