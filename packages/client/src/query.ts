/**
 * Catalog queries (`GET /v1/profiles`, `/v1/products`, `/v1/funnels`, and their pinned forms): one
 * page, or every page through the pinned `next` URLs, so paging stays in the release it started in.
 * `queryAll` verifies each profile against the release index: its canonical bytes (RFC 8785, which
 * is how the document holds them) must have the SHA-256 the index gives for its scope, read from the
 * release's product listings (`/v1/releases/{id}/products/{key}/profiles`, one per product, cached).
 */
import { CatalogVerificationError } from "./errors.js";
import type { CatalogHttp } from "./http-client.js";
import { pathSegment, releaseIdFrom } from "./manifest.js";
import { canonicalJson } from "./protocol/canonical.js";
import { toHex } from "./protocol/digests.js";
import type { CallOptions, Profile } from "./types.js";

/** Filters: a list means *any of*; different filters combine with *and* (docs/contract.md). */
export interface QueryFilters {
  product?: string | string[];
  funnel?: string | string[];
  entity?: string | string[];
  grade?: string | string[];
  overall_outcome?: string | string[];
  public_state?: string | string[];
  "stage.evaluate"?: string | string[];
  "stage.sign_up"?: string | string[];
  "stage.pay"?: string | string[];
  "stage.provision"?: string | string[];
  "stage.operate"?: string | string[];
  primary_stage?: string | string[];
  signal?: string | string[];
  coverage_status?: string | string[];
  freshness?: string | string[];
  lifecycle?: string | string[];
  visibility?: string | string[];
  /** ISO 8601 UTC instants: `last_tested_at` ≥ tested_after and < tested_before. */
  tested_after?: string;
  tested_before?: string;
  /** Full text: every word must occur; the last may be a prefix. */
  q?: string;
}

export type QuerySort = "catalog" | "grade" | "-grade" | "last_tested_at" | "-last_tested_at";

export interface QueryOptions extends CallOptions {
  sort?: QuerySort;
  /** 1–100, default 20. */
  limit?: number;
  /** Fields to count over every match, e.g. `["grade", "stage.pay"]`. */
  facets?: string[];
  /** A release id to query instead of the current release. */
  release?: string;
}

export interface QueryPage {
  releaseId: string;
  /** The exact number of matches. */
  count: number;
  profiles: Profile[];
  hasMore: boolean;
  /** The next page's pinned path, or null. */
  next: string | null;
  facets?: Record<string, Record<string, number>>;
}

export interface ProductEntry {
  product_key: string;
  name: string;
  funnel_count: number;
  href: string;
}
export interface FunnelEntry {
  funnel_key: string;
  name: string;
  profile_count: number;
  href: string;
}

interface ListBody<T> {
  release_id: string;
  count?: number;
  data: T[];
  has_more: boolean;
  next: string | null;
  facets?: Record<string, Record<string, number>>;
}

function queryPath(filters: QueryFilters, options: QueryOptions): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters))
    if (value !== undefined) params.set(name, Array.isArray(value) ? value.join(",") : String(value));
  if (options.sort) params.set("sort", options.sort);
  if (options.limit !== undefined) params.set("limit", String(options.limit));
  if (options.facets?.length) params.set("facets", options.facets.join(","));
  const base = options.release === undefined ? "/v1" : `/v1/releases/${pathSegment(releaseIdFrom(options.release))}`;
  const search = params.toString();
  return `${base}/profiles${search ? `?${search}` : ""}`;
}

async function getList<T>(http: CatalogHttp, baseUrl: string, path: string, signal?: AbortSignal) {
  const url = new URL(path, baseUrl).href;
  const response = await http.get(url, { signal });
  const body = (await response.json()) as ListBody<T>;
  if (!Array.isArray(body?.data) || typeof body.release_id !== "string")
    throw new CatalogVerificationError(`${url}: the answer is not a list`);
  return body;
}

const pageOf = (body: ListBody<Profile>): QueryPage => ({
  releaseId: body.release_id,
  count: body.count ?? 0,
  profiles: body.data,
  hasMore: body.has_more,
  next: body.next,
  ...(body.facets ? { facets: body.facets } : {}),
});

export async function queryPage(
  http: CatalogHttp,
  baseUrl: string,
  filters: QueryFilters,
  options: QueryOptions = {},
): Promise<QueryPage> {
  return pageOf(await getList<Profile>(http, baseUrl, queryPath(filters, options), options.signal));
}

/** Every match, page after page in one release, each verified against that release's index. */
export async function* queryEvery(
  http: CatalogHttp,
  baseUrl: string,
  filters: QueryFilters,
  options: QueryOptions = {},
): AsyncGenerator<Profile, void, undefined> {
  const index = new IndexDigests(http, baseUrl, options.signal);
  let releaseId: string | undefined;
  for (let path: string | null = queryPath(filters, { ...options, limit: options.limit ?? 100 }); path; ) {
    const page: ListBody<Profile> = await getList<Profile>(http, baseUrl, path, options.signal);
    const first: string = releaseId ?? page.release_id;
    releaseId = first;
    if (page.release_id !== first)
      throw new CatalogVerificationError(`${path}: a later page came from release ${page.release_id}, not ${first}`);
    for (const profile of page.data) {
      await index.verify(first, profile);
      yield profile;
    }
    path = page.next;
  }
}

/** The SHA-256 of each profile by scope, from the release's product listings (the scope index). */
class IndexDigests {
  readonly #byProduct = new Map<string, Promise<Map<string, string>>>();
  constructor(
    readonly http: CatalogHttp,
    readonly baseUrl: string,
    readonly signal?: AbortSignal,
  ) {}

  async verify(releaseId: string, profile: Profile) {
    const product = profile.scope?.product?.key;
    const funnel = profile.scope?.funnel?.key;
    const digests = await this.#digestsOf(releaseId, String(product));
    const expected = digests.get(String(funnel));
    const bytes = new TextEncoder().encode(canonicalJson(profile));
    const actual = `sha256:${toHex(await crypto.subtle.digest("SHA-256", bytes))}`;
    if (expected !== actual)
      throw new CatalogVerificationError(
        `profile ${profile.agent_readiness_profile_id} (${product}/${funnel}) has SHA-256 ${actual}; release ${releaseId}'s index says ${expected ?? "it has no such profile"}`,
      );
  }

  #digestsOf(releaseId: string, product: string): Promise<Map<string, string>> {
    let digests = this.#byProduct.get(product);
    if (!digests) {
      digests = this.#read(releaseId, product);
      this.#byProduct.set(product, digests);
    }
    return digests;
  }

  async #read(releaseId: string, product: string): Promise<Map<string, string>> {
    const digests = new Map<string, string>();
    let path: string | null = `/v1/releases/${pathSegment(releaseId)}/products/${pathSegment(product)}/profiles`;
    while (path) {
      const url = new URL(path, this.baseUrl).href;
      const body = (await (await this.http.get(url, { signal: this.signal })).json()) as ProductListing;
      // `data` since every list shares one shape; `profiles` on servers before it (read for one release).
      for (const entry of body.data ?? body.profiles ?? []) digests.set(entry.funnel_key, entry.sha256);
      path = body.next;
    }
    return digests;
  }
}

/** A page of a product's listing: `data` now, `profiles` before every list shared one shape. */
interface ProductListing {
  data?: { funnel_key: string; sha256: string }[];
  profiles?: { funnel_key: string; sha256: string }[];
  next: string | null;
}

/** Every entry of a browse listing (`products` or `funnels`), page after page in one release. */
export async function* listEvery<T>(
  http: CatalogHttp,
  baseUrl: string,
  route: "products" | "funnels",
  options: CallOptions & { release?: string; q?: string },
): AsyncGenerator<T, void, undefined> {
  const base = options.release === undefined ? "/v1" : `/v1/releases/${pathSegment(releaseIdFrom(options.release))}`;
  let path: string | null = `${base}/${route}?limit=100${options.q ? `&q=${encodeURIComponent(options.q)}` : ""}`;
  while (path) {
    const page: ListBody<T> = await getList<T>(http, baseUrl, path, options.signal);
    yield* page.data;
    path = page.next;
  }
}
