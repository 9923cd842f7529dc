/**
 * Deterministic, varied, valid profiles for scale tests and the benchmark: the same seed gives the
 * same profiles, byte for byte. Products get one to six funnels; stage outcomes, signals, grades,
 * coverage and times vary; names include non-ASCII letters (multi-byte UTF-8 in the document).
 */
import { expectDefined } from "../../../common/expect";
import { SIGNAL_CODES, STAGES, type Profile } from "../../../common/catalog/schema";
import { keyOf, makeProfile, type StageChoice } from "./profile-factory";

const PREFIXES = [
  "Northwind",
  "Contoso",
  "Fabrikam",
  "Tailspin",
  "Lumen",
  "Brightwave",
  "Quill",
  "Harbor",
  "Juniper",
  "Kestrel",
  "Meridian",
  "Orbit",
  "Pinecrest",
  "Quasar",
  "Riverbend",
  "Solstice",
  "Tundra",
  "Vantage",
  "Willow",
  "Zephyr",
  "Zürich",
  "Ægir",
  "Café",
  "Søndre",
];
const DOMAINS = [
  "Payments",
  "Ledger",
  "Mail",
  "Maps",
  "Search",
  "Storage",
  "Analytics",
  "Identity",
  "Messaging",
  "Billing",
  "Invoicing",
  "Translate",
  "Vision",
  "Scheduler",
  "Forms",
  "Shipping",
  "Tax",
  "Payroll",
  "CRM",
  "Docs",
];
const SUFFIXES = ["API", "Cloud", "Platform", "Connect", "Hub", "Works"];
const FUNNELS = [
  "Checkout",
  "Onboarding",
  "Usage billing",
  "Data export",
  "Webhooks",
  "Sandbox",
  "Team admin",
  "API keys",
  "Reporting",
  "Bulk import",
];
const GRADES_BY_LIMITED: Profile["grade"][][] = [["A"], ["B+", "A"], ["B", "B+"], ["C+", "B"], ["C", "D"], ["D", "F"]];

const GENERATED_POLICY = {
  digest: "sha256:5b1f0c9e2a7d4e6f8a0b1c2d3e4f5061728394a5b6c7d8e9f00112233445566a",
  version: "readiness-policy/2026.10",
  asOf: "2026-10-01T00:00:00Z",
};

/** sfc32: a small, fast, well-distributed PRNG (PractRand-tested); state from the seed. */
function prng(seed: number): () => number {
  let a = 0x9e3779b9 ^ seed;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed | 0;
  const next = () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return next;
}

const ALPHANUMERIC = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Profiles one by one; `count` of them, never held together. */
export function* generateProfiles(count: number, seed = 1): Generator<Profile> {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]) => expectDefined(list[Math.floor(random() * list.length)], "a non-empty list");
  const chars = (n: number, alphabet: string) =>
    Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
  const uniqueId = (prefix: string, serial: number) =>
    prefix + chars(20, ALPHANUMERIC) + serial.toString(36).padStart(6, "0");
  const digest = () => `sha256:${chars(64, "0123456789abcdef")}`;
  const combos = PREFIXES.length * DOMAINS.length * SUFFIXES.length;
  let made = 0;
  for (let product = 0; made < count; product++) {
    const name = productName(product, combos);
    const productScope = { key: keyOf(name), name };
    const entityId = uniqueId("ent_", product);
    const funnels = [...FUNNELS].sort(() => random() - 0.5).slice(0, 1 + Math.floor(random() * 6));
    for (const funnel of funnels) {
      if (made >= count) return;
      const limitedOdds = random() * 0.6;
      const stages: StageChoice[] = STAGES.map((stage) => ({
        outcome: random() < limitedOdds ? "constrained" : "pass",
        signal: pick(SIGNAL_CODES[stage]),
        variant: Math.floor(random() * 2),
      }));
      const limited = stages.filter((s) => s.outcome === "constrained").length;
      const covered = random() < 0.8 ? 14 : 9 + Math.floor(random() * 5);
      const effective = Date.UTC(2026, 8, 1) + Math.floor(random() * 30 * 86400) * 1000;
      const tested = Date.UTC(2026, 10, 1) + Math.floor(random() * 20 * 86400 * 1000);
      yield makeProfile({
        id: uniqueId("arp_", made),
        entityId,
        product: productScope,
        funnel: { key: keyOf(funnel), name: funnel },
        stages,
        grade: pick(expectDefined(GRADES_BY_LIMITED[limited], "grades for 0 to 5 limited stages")),
        coverage: { covered, required: 14, verified: Math.floor(random() * 6), barrier: 5 },
        effectiveFrom: new Date(effective).toISOString().replace(/\.\d{3}Z$/, "Z"),
        lastTestedAt: new Date(tested).toISOString(),
        digests: { declaration: digest(), revision: digest(), projection: digest() },
        policy: GENERATED_POLICY,
        siteBaseUrl: "https://agentready.example",
      });
      made++;
    }
  }
}

/** Product n's name: every combination of prefix, domain and suffix, then numbered editions. */
function productName(n: number, combos: number): string {
  const i = n % combos;
  const prefix = PREFIXES[i % PREFIXES.length];
  const domain = DOMAINS[Math.floor(i / PREFIXES.length) % DOMAINS.length];
  const suffix = SUFFIXES[Math.floor(i / (PREFIXES.length * DOMAINS.length))];
  const edition = Math.floor(n / combos);
  return `${prefix} ${domain} ${suffix}${edition ? ` ${edition + 1}` : ""}`;
}
