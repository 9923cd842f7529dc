/**
 * The client reads a product's listing (what queryAll verifies each match against) in the one list
 * shape, `{object: "list", data, has_more, next}`, and, for one release, in the shape servers
 * answered before it, `{release_id, product_key, profiles, next}` paged by `?after=<funnel key>`.
 * The old pages below are that shape as a server before the change answered it, served by a fake
 * fetch; the worker tests run the client against the real routes (test/worker/catalog-client-query.test.ts).
 */
import { describe, expect, it } from "vitest";
import { CatalogVerificationError } from "../src/errors.js";
import { createCatalogHttp } from "../src/http-client.js";
import { canonicalJson } from "../src/protocol/canonical.js";
import { sha256Hex } from "../src/protocol/digests.js";
import { queryEvery } from "../src/query.js";
import { fakeClock } from "./client-fakes";

const BASE = "https://api.test";
const RELEASE = `sha256:${"ab".repeat(32)}`;
const LISTING = `/v1/releases/${RELEASE}/products/acme/profiles`;

const profile = (funnel: string) => ({
  agent_readiness_profile_id: `arp_${funnel.padEnd(26, "0")}`,
  scope: { product: { key: "acme" }, funnel: { key: funnel } },
});
const PROFILES = [profile("checkout"), profile("signup")];

async function entries(profiles: typeof PROFILES) {
  return Promise.all(
    profiles.map(async (p) => ({
      funnel_key: p.scope.funnel.key,
      sha256: `sha256:${await sha256Hex(canonicalJson(p))}`,
    })),
  );
}

/** A product listing in two pages: [first page, second page] keyed by the URL the client asks. */
type Listing = (first: object[], second: object[]) => Record<string, object>;

const newShape: Listing = (first, second) => ({
  [LISTING]: {
    object: "list",
    release_id: RELEASE,
    product_key: "acme",
    data: first,
    has_more: true,
    next: `${LISTING}?limit=1&cursor=c.t`,
  },
  [`${LISTING}?limit=1&cursor=c.t`]: {
    object: "list",
    release_id: RELEASE,
    product_key: "acme",
    data: second,
    has_more: false,
    next: null,
  },
});

/** As a server before the one list shape answered (recorded shape: no object, data or has_more). */
const oldShape: Listing = (first, second) => ({
  [LISTING]: { release_id: RELEASE, product_key: "acme", profiles: first, next: `${LISTING}?after=checkout` },
  [`${LISTING}?after=checkout`]: { release_id: RELEASE, product_key: "acme", profiles: second, next: null },
});

function server(pages: Record<string, object>) {
  const query = { object: "list", release_id: RELEASE, count: 2, data: PROFILES, has_more: false, next: null };
  const answers: Record<string, object> = { "/v1/profiles?limit=100": query, ...pages };
  const fetch = async (request: Request) => {
    const url = new URL(request.url);
    const body = answers[`${url.pathname}${url.search}`];
    if (!body) return new Response(`no page ${url.pathname}${url.search}`, { status: 404 });
    return Response.json(body);
  };
  return createCatalogHttp({ fetch, clock: fakeClock(), random: () => 0.5 });
}

async function all(pages: Record<string, object>) {
  const found = [];
  for await (const match of queryEvery(server(pages), BASE, {})) found.push(match);
  return found;
}

describe.each([
  ["the one list shape", newShape],
  ["the shape before it (for one release)", oldShape],
])("queryAll verifies against a product listing in %s", (_shape, listing) => {
  it("following next across pages", async () => {
    const [first, second] = await entries(PROFILES);
    expect(await all(listing([first ?? {}], [second ?? {}]))).toEqual(PROFILES);
  });

  it("and refuses a match whose digest the listing contradicts", async () => {
    const [first] = await entries(PROFILES);
    const [wrong] = await entries([profile("other")]);
    const pages = listing([first ?? {}], [{ funnel_key: "signup", sha256: wrong?.sha256 }]);
    await expect(all(pages)).rejects.toBeInstanceOf(CatalogVerificationError);
  });
});
