/**
 * What the explorer refuses: every problem of the address at once, in words on a 400 page (unknown
 * parameters too), a profile the release does not hold (404), and a deployment with no release
 * yet (503). No refusal is a problem+json body or a 5xx; a storage failure is a 500 page in
 * words, with the request id and without the failure's text.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { call, newAccount } from "./auth-fixtures";
import { type DashboardClient, signIn, visibleText } from "./dashboard-support";
import { oracleProfiles } from "./support/query-oracle";
import { publish, testRelease } from "./support/releases";

let client: DashboardClient;

async function page(path: string, status: number): Promise<string> {
  const res = await client.get(path);
  const html = await res.text();
  expect(res.status, visibleText(html).slice(0, 600)).toBe(status);
  expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
  return visibleText(html).replaceAll(" : ", ": "); // "<code>grade</code>: …" reads "grade: …"
}

beforeAll(async () => {
  client = await signIn(await newAccount());
});

describe("before any release is published", () => {
  it("says the catalog is not available yet (503), on every page", async () => {
    expect(await page("/explore", 503)).toContain("No catalog release has been published on this deployment yet");
    await page("/explore/profiles/arp_0000000000000000000000000a", 503);
  });
});

describe("with a release", () => {
  const base = testRelease("base");
  const [first, second] = oracleProfiles(base).map((p) => p.profile.agent_readiness_profile_id);
  beforeAll(async () => {
    await publish(base);
  }, 60_000);

  it("lists every problem of the filters at once (400), unknown parameters first", async () => {
    const text = await page("/explore?grade=Z&sort=up&bogus=1&limit=0&q=%21%21", 400);
    expect(text).toContain("These filters cannot be applied");
    const order = [
      'bogus: unknown query parameter "bogus"',
      'grade: "Z" is not an allowed value',
      "sort: must be one of",
    ];
    let at = -1;
    for (const line of order) {
      const here = text.indexOf(line);
      expect(here, line).toBeGreaterThan(at);
      at = here;
    }
    expect(text).toContain("limit: must be an integer from 1 to 100");
    expect(text).toContain("q: must contain a word");
  });

  it("refuses `facets` (the page asks its own) and a parameter given twice", async () => {
    const facets = await page("/explore?facets=grade", 400);
    expect(facets).toContain('facets: unknown query parameter "facets"');
    expect(facets).not.toMatch(/accepts [^<]*facets/);
    expect(await page("/explore?q=pay&q=api", 400)).toContain("q: must be given once");
  });

  it("refuses a cursor this query did not make", async () => {
    const stale = await page("/explore?grade=A&cursor=abc.def", 400);
    expect(stale).toContain("The page link you followed was made for another query or an earlier release");
    // Said once, in words: no problem list repeating it, no Markdown backticks.
    expect(stale.match(/another query/g)).toHaveLength(1);
    expect(stale).not.toContain("`");
    const html = await (await client.get("/explore?grade=A&cursor=abc.def")).text();
    expect(html).toContain('<a href="/explore?grade=A">First page of this view</a>');
    const view = await client.get("/explore?limit=5");
    const next = /href="([^"]+)" rel="next"/.exec(await view.text())?.[1]?.replaceAll("&amp;", "&");
    expect(next).toBeDefined();
    // The same cursor with another filter pages nothing else: it is refused.
    await page(`${next}&grade=A`, 400);
  });

  it("a profile page: a malformed id or any parameter is 400, an id the release lacks 404", async () => {
    expect(await page("/explore/profiles/nope", 400)).toContain("id: is not a profile id");
    expect(await page(`/explore/profiles/${first}?x=1`, 400)).toContain('x: unknown parameter "x"');
    expect(await page("/explore/profiles/arp_0000000000000000000000000a", 404)).toContain(
      "the current release has no profile arp_0000000000000000000000000a",
    );
    await page("/explore/nothing-here", 404);
  });

  it("compare: 2 to 5 valid ids and nothing else, every problem listed", async () => {
    expect(await page(`/explore/compare?id=${first}`, 400)).toContain(
      "choose 2 to 5 different profiles to compare, got 1",
    );
    expect(await page(`/explore/compare?id=${first}&id=${first}`, 400)).toContain("got 1");
    const six = Array.from({ length: 6 }, (_, i) => `id=arp_${String(i).padStart(26, "0")}`).join("&");
    expect(await page(`/explore/compare?${six}`, 400)).toContain("got 6");
    const text = await page(`/explore/compare?id=${first}&id=bad&sort=x`, 400);
    expect(text).toContain('sort: unknown parameter "sort"');
    expect(text).toContain('id: "bad" is not a profile id');
    expect(await page(`/explore/compare?id=${second}&id=arp_0000000000000000000000000a`, 404)).toContain(
      "the current release has no profile arp_0000000000000000000000000a",
    );
  });

  it("What changed: every bad parameter listed (400), a release the history does not know named (404)", async () => {
    const release = base.manifest.release_id;
    const text = await page("/explore/changes?release=nope&since=1&since=2&page=3", 400);
    expect(text).toContain("These releases cannot be compared");
    expect(text).toContain('release: "nope" is not a release id');
    expect(text).toContain("since: must be given once");
    expect(text).toContain('page: unknown parameter "page"');
    const list = await page(`/explore/changes/profiles?since=${release}&field=grade&change=gone`, 400);
    expect(list).toContain("change: must be one of added, removed, changed");
    expect(list).toContain("transition: field and transition go together");
    expect(await page(`/explore/changes/profiles?since=${release}`, 400)).toContain("change: is required");
    const unknown = `sha256:${"e".repeat(64)}`;
    expect(await page(`/explore/changes?since=${unknown}`, 404)).toContain(`since: ${unknown} is not one of them`);
    expect(await page(`/explore/changes?release=${unknown}&since=${release}`, 404)).toContain(
      `release: ${unknown} is not one of them`,
    );
  });

  it("What changed after the first publish: nothing before it to compare with", async () => {
    expect(await page("/explore/changes", 200)).toContain("there is nothing before it to compare with");
    expect(await page("/explore/changes/profiles?change=added", 400)).toContain(
      "since: is required: release began the history, nothing came before it",
    );
  });
});

describe("when the release storage fails", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is a 500 page in words with the request id, never the failure's own text or a problem+json body", async () => {
    const release = testRelease("base");
    await publish(release);
    const [first] = oracleProfiles(release);
    const id = expectDefined(first, "a profile in the base release").profile.agent_readiness_profile_id;
    const outage = () => {
      throw new Error("simulated R2 outage at 10.0.0.7");
    };
    const failing = { ...env, RELEASES: { get: outage, head: outage, list: outage } } as unknown as Env;
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const res = await call(`/explore/profiles/${id}`, { headers: { Cookie: cookie } }, failing);
    const html = await res.text();
    expect(res.status).toBe(500);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    const requestId = res.headers.get("request-id");
    expect(visibleText(html)).toContain(`quote request id ${requestId}`);
    expect(html).not.toContain("simulated R2 outage");
    const log = logged.mock.calls.flat().join("\n");
    expect(log).toContain("simulated R2 outage");
    expect(log).toContain(`"request_id":"${requestId}"`);
  });
});
