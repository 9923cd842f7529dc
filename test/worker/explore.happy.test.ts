/**
 * The explorer's pages answer what the query API answers for the same query string: the exact
 * count, the page's profiles in order, every facet's counts and the keyset pages; the profile page
 * shows a profile's stages, derivation, coverage and the curl of its exact bytes; compare shows
 * 2–5 profiles side by side with their differences marked.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { newAccount } from "./auth-fixtures";
import { type DashboardClient, signIn, visibleText } from "./dashboard-support";
import { apiAnswer, apiDisjunctiveFacets, apiIds, explorerView } from "./explore-support";
import { api } from "./support/api";
import { oracleProfiles } from "./support/query-oracle";
import { publish, testRelease } from "./support/releases";

const generated = testRelease("generated");
const all = oracleProfiles(generated);
let client: DashboardClient;

beforeAll(async () => {
  await publish(generated);
  client = await signIn(await newAccount());
}, 60_000);

const CASES: { explorer: string; api: string }[] = [
  { explorer: "", api: "" },
  { explorer: "grade=A&grade=B%2B", api: "grade=A,B%2B" },
  { explorer: "grade=A,B%2B&sort=-last_tested_at", api: "grade=A,B%2B&sort=-last_tested_at" },
  {
    explorer: "stage.pay=limited&stage.sign_up=ready&sort=grade",
    api: "stage.pay=limited&stage.sign_up=ready&sort=grade",
  },
  {
    explorer: "funnel=checkout&primary_stage=pay&primary_stage=operate",
    api: "funnel=checkout&primary_stage=pay,operate",
  },
  { explorer: "q=payments&sort=catalog", api: "q=payments" },
  { explorer: "q=&overall_outcome=constrained&freshness=fresh", api: "overall_outcome=constrained&freshness=fresh" },
  { explorer: "signal=self_service_purchase&sort=-grade", api: "signal=self_service_purchase&sort=-grade" },
];

describe("GET /explore shows what GET /v1/profiles answers", () => {
  for (const { explorer, api: search } of CASES) {
    it(`?${explorer}: count, rows and facet counts`, async () => {
      const view = await explorerView(client, `/explore?${explorer}`);
      const answer = await apiAnswer(search);
      expect(view.count).toBe(answer.count);
      expect(view.ids).toEqual(answer.data.map((p) => p.agent_readiness_profile_id));
      expect(view.facets).toEqual(await apiDisjunctiveFacets(search));
    });
  }

  it("counts a facet without its own choice, so a second value can be ticked (disjunctive facets)", async () => {
    const whole = await apiAnswer("");
    const [first, second] = Object.keys(whole.facets.grade ?? {}) as [string, string];
    const one = await explorerView(client, `/explore?grade=${encodeURIComponent(first)}`);
    expect(one.count).toBe(whole.facets.grade?.[first]);
    // Every other grade is still offered, with the number of profiles ticking it would add.
    expect(one.facets.grade).toEqual(whole.facets.grade);
    const two = await explorerView(
      client,
      `/explore?grade=${encodeURIComponent(first)}&grade=${encodeURIComponent(second)}`,
    );
    expect(two.count).toBe((whole.facets.grade?.[first] ?? 0) + (whole.facets.grade?.[second] ?? 0));
    const api = await apiAnswer(`grade=${encodeURIComponent(`${first},${second}`)}`);
    expect(two.ids).toEqual(api.data.map((p) => p.agent_readiness_profile_id));
    // The charts still count only the matches: the two chosen grades.
    expect(two.html).toMatch(new RegExp(`${first.replace("+", "\\+")}: ${whole.facets.grade?.[first]}[,.]`));
    expect(visibleText(two.html)).not.toMatch(/\b(?:C\+|D|F): [1-9]/);
  });

  it("folds the filters into a panel ahead of the results, and the charts come after them", async () => {
    const { html } = await explorerView(client, "/explore?grade=A");
    const panel = html.indexOf('<details class="filter-panel">');
    expect(panel).toBeGreaterThan(-1);
    expect(html).toMatch(
      /<summary><h2 id="filters-heading">Filters<\/h2><span class="muted"> 1 chosen<\/span><\/summary>/,
    );
    expect(html.indexOf('id="results-heading"')).toBeLessThan(html.indexOf('id="glance-heading"'));
    // Primary stage is the API's primary_stage: evaluate when every stage is ready, said in words.
    expect(visibleText(html)).toContain("or evaluate when every stage is ready");
  });

  it("keeps a chosen value that no longer matches, at 0 and ticked, so it can be unticked", async () => {
    const funnel = expectDefined(all[0], "a generated profile").profile.scope.funnel.key;
    const grades = new Set(all.filter((p) => p.profile.scope.funnel.key === funnel).map((p) => p.profile.grade));
    const absent = expectDefined(
      ["A", "B+", "B", "C+", "C", "D", "F"].find((grade) => !grades.has(grade as never)),
      `a grade no profile of ${funnel} has`,
    );
    const view = await explorerView(client, `/explore?funnel=${funnel}&grade=${encodeURIComponent(absent)}`);
    expect(view.count).toBe(0);
    expect(visibleText(view.html)).toContain("No profile matches these filters");
    expect(view.html).toMatch(
      new RegExp(
        `name="grade" value="${absent.replace("+", "\\+")}" checked=""/><span class="facet-value">[^<]+</span><span class="facet-count">0</span>`,
      ),
    );
  });

  it("draws the charts from the same counts, with the numbers as text", async () => {
    const view = await explorerView(client, "/explore?funnel=checkout");
    const answer = await apiAnswer("funnel=checkout");
    const grades = Object.entries(answer.facets.grade ?? {});
    expect(grades.length).toBeGreaterThan(1);
    for (const [grade, n] of grades) expect(view.html).toMatch(new RegExp(`${grade.replace("+", "\\+")}: ${n}[,.]`));
    const pay = answer.facets["stage.pay"] ?? {};
    expect(view.html).toContain(`Pay: ${pay.ready ?? 0} ready, ${pay.limited ?? 0} limited`);
    expect(view.html).toContain("<svg");
  });

  it("pages by keyset to the end: the same profiles, in the same order, as the API's pages", async () => {
    const search = "stage.provision=limited&sort=-grade&limit=9";
    const ids: string[] = [];
    let view = await explorerView(client, `/explore?${search}`);
    const count = view.count;
    ids.push(...view.ids);
    for (let pages = 1; view.next; pages++) {
      expect(view.next).toMatch(/^\/explore\?.*cursor=/);
      expect(pages).toBeLessThan(100);
      view = await explorerView(client, view.next);
      expect(view.count).toBe(count);
      ids.push(...view.ids);
    }
    expect(visibleText(view.html)).toContain("Last page.");
    expect(ids).toEqual(await apiIds(search));
    expect(ids.length).toBe(count);
  });
});

describe("the profile page", () => {
  it("shows the stages in order, the derivation, coverage, provenance and the curl of its exact bytes", async () => {
    const { profile, text } = expectDefined(all[7], "profile 7");
    const id = profile.agent_readiness_profile_id;
    const res = await client.get(`/explore/profiles/${id}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const shown = visibleText(html);
    let at = -1;
    for (const stage of profile.stages) {
      const here = shown.indexOf(`${stage.stage_label}: `, at + 1);
      expect(here, stage.stage).toBeGreaterThan(at);
      at = here;
      expect(shown).toContain(visibleText(stage.primary_finding.finding));
    }
    expect(shown).toContain(visibleText(profile.grade_derivation.explanation));
    expect(shown).toContain(
      `Graded signals covered: ${profile.coverage.covered_signals} of ${profile.coverage.required_signals}`,
    );
    expect(html).toContain(`<meter id="coverage-meter"`);
    expect(shown).toContain(`Vendor attestation ${profile.provenance.vendor_attestation.status}`);
    expect(shown).toContain(generated.manifest.release_id);

    // The curl names the pinned URL: asked of the API, it returns exactly the profile's bytes.
    const curl = /id="curl-command"[^>]*value="([^"]+)"/.exec(html)?.[1]?.replaceAll("&quot;", '"');
    expect(curl).toMatch(/^curl -sS -H "Authorization: Bearer \$CATALOG_API_KEY" https:\/\/api\.test\/v1\/releases\//);
    const url = new URL(expectDefined(curl?.split(" ").at(-1), "the URL at the end of the curl command"));
    const fetched = await api(url.pathname);
    expect(fetched.status).toBe(200);
    const bytes = await fetched.text();
    expect(bytes).toBe(text);
    const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(bytes)))]
      .map((b) => b.toString(16).padStart(2, "0"))
      .join("");
    expect(html).toContain(`<code id="profile-sha256">sha256:${digest}</code>`);
  });
  it("says no stage is the first not ready when every stage is ready", async () => {
    const ready = expectDefined(
      all.find((p) => p.profile.overall_outcome === "pass"),
      "a profile with every stage ready",
    ).profile;
    const limited = expectDefined(
      all.find((p) => p.profile.primary_finding.stage === "pay"),
      "a profile first not ready at pay",
    ).profile;
    const said = async (id: string) => visibleText(await (await client.get(`/explore/profiles/${id}`)).text());
    expect(await said(ready.agent_readiness_profile_id)).toContain(
      "first stage not ready: none, every stage is ready.",
    );
    expect(await said(limited.agent_readiness_profile_id)).toContain("first stage not ready: Pay.");
  });
});

describe("compare", () => {
  it("shows 2–5 profiles side by side and marks each row that differs", async () => {
    const chosen = [1, 2, 30].map((i) => expectDefined(all[i], `profile ${i}`).profile);
    const res = await client.get(
      `/explore/compare?${chosen.map((p) => `id=${p.agent_readiness_profile_id}`).join("&")}`,
    );
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const p of chosen) expect(html).toContain(`href="/explore/profiles/${p.agent_readiness_profile_id}"`);
    const gradesDiffer = new Set(chosen.map((p) => p.grade)).size > 1;
    expect(/<tr class="differs"><th scope="row">Grade<span class="differs-badge">Differs/.test(html)).toBe(
      gradesDiffer,
    );
    const stagesDiffering = ["evaluate", "sign_up", "pay", "provision", "operate"].filter(
      (name) => new Set(chosen.map((p) => p.stages.find((s) => s.stage === name)?.public_state)).size > 1,
    ).length;
    const marked = (html.match(/class="differs-badge"/g) ?? []).length;
    expect(marked).toBeGreaterThanOrEqual(stagesDiffering + (gradesDiffer ? 1 : 0));
    // The comma form is the same page.
    const comma = await client.get(`/explore/compare?id=${chosen.map((p) => p.agent_readiness_profile_id).join(",")}`);
    expect(comma.status).toBe(200);
  });
});

describe("where the explorer is linked", () => {
  it("from /, from the dashboard's navigation and from the API reference's description", async () => {
    expect(await (await api("/")).text()).toContain('href="/explore"');
    expect(await (await client.get("/dashboard/keys")).text()).toContain('href="/explore"');
    const doc = await (await api("/openapi.json")).json<{ info: { description: string } }>();
    expect(doc.info.description).toContain("(/explore)");
  });
});
