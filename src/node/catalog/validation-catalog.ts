/**
 * Catalog-wide rules: one policy (digest and version) for the whole catalog, unique profile ids,
 * unique (product, funnel) scopes. Built for a streaming build in two passes with memory that does
 * not hold the catalog: `CatalogTally` sees every profile once in any order (policy counts and the
 * set of ids); `CatalogOrderCheck` then sees them in catalog order, where equal scopes are adjacent.
 */
import { expectDefined } from "../../common/expect";
import { describe, type RuleViolation } from "./validation-report";

export interface CatalogEntry {
  id: string;
  productKey: string;
  funnelKey: string;
  policyDigest: string;
  policyVersion: string;
  /** Where the profile came from, for messages (`profiles/a.json`, `big.ndjson line 12`). */
  where: string;
}

export interface Policy {
  policy_digest: string;
  policy_version: string;
}

export class CatalogTally {
  private readonly policies = new Map<string, number>();
  private readonly ids = new IdFingerprints();
  /** Ids that may be shared (a fingerprint matched); the ordered pass counts them exactly. */
  readonly duplicateIds = new Set<string>();

  observe(entry: Pick<CatalogEntry, "id" | "policyDigest" | "policyVersion">): void {
    const policy = JSON.stringify([entry.policyDigest, entry.policyVersion]);
    this.policies.set(policy, (this.policies.get(policy) ?? 0) + 1);
    if (!this.ids.add(entry.id)) this.duplicateIds.add(entry.id);
  }

  /** The catalog's policy: the most common one (ties: the smallest), which the others must match. */
  referencePolicy(): Policy | undefined {
    let best: [string, number] | undefined;
    for (const [policy, n] of this.policies) {
      if (!best || n > best[1] || (n === best[1] && policy < best[0])) best = [policy, n];
    }
    if (!best) return undefined;
    const [policy_digest, policy_version] = JSON.parse(best[0]) as [string, string];
    return { policy_digest, policy_version };
  }
}

export interface LocatedViolation<E extends CatalogEntry = CatalogEntry> extends RuleViolation {
  entry: E;
}

/** Feed entries in catalog order (product key, funnel key, profile id); then call `finish`. */
export class CatalogOrderCheck<E extends CatalogEntry = CatalogEntry> {
  private previous: E | undefined;
  private readonly sharedIds = new Map<string, E[]>();
  private readonly policy: Policy | undefined;
  private readonly duplicateIds: ReadonlySet<string>;

  constructor(tally: CatalogTally) {
    this.policy = tally.referencePolicy();
    this.duplicateIds = tally.duplicateIds;
  }

  check(entry: E): LocatedViolation<E>[] {
    const out: LocatedViolation<E>[] = [];
    const policy = this.policy;
    if (policy && entry.policyDigest !== policy.policy_digest) {
      out.push({
        entry,
        rule: "policy-consistency",
        path: "policy_digest",
        message: "every profile of a catalog is graded under one policy",
        expected: describe(policy.policy_digest),
        found: describe(entry.policyDigest),
      });
    }
    if (policy && entry.policyVersion !== policy.policy_version) {
      out.push({
        entry,
        rule: "policy-consistency",
        path: "policy_version",
        message: "every profile of a catalog is graded under one policy",
        expected: describe(policy.policy_version),
        found: describe(entry.policyVersion),
      });
    }
    const before = this.previous;
    if (before && before.productKey === entry.productKey && before.funnelKey === entry.funnelKey) {
      out.push({
        entry,
        rule: "unique-scope",
        path: "scope",
        message: `product "${entry.productKey}" with funnel "${entry.funnelKey}" is already profiled by ${before.id} (${before.where})`,
        expected: "a (product, funnel) pair no other profile has",
        found: describe({ product: entry.productKey, funnel: entry.funnelKey }),
      });
    }
    this.previous = entry;
    if (this.duplicateIds.has(entry.id)) {
      const list = this.sharedIds.get(entry.id) ?? [];
      list.push(entry);
      this.sharedIds.set(entry.id, list);
    }
    return out;
  }

  /** One violation per profile whose id another profile also uses. */
  finish(): LocatedViolation<E>[] {
    const out: LocatedViolation<E>[] = [];
    for (const [id, entries] of this.sharedIds) {
      if (entries.length < 2) continue; // a fingerprint collision, not a shared id
      for (const entry of entries) {
        const others = entries.filter((e) => e !== entry).map((e) => e.where);
        out.push({
          entry,
          rule: "unique-profile-id",
          path: "agent_readiness_profile_id",
          message: `${entries.length} profiles share this id; also in ${others.join(", ")}`,
          expected: "an id no other profile has",
          found: describe(id),
        });
      }
    }
    return out;
  }
}

/**
 * A set of 64-bit fingerprints of ids (two 32-bit FNV-1a hashes, open addressing): 16 bytes per id
 * instead of a string set's ~70, so the catalog-wide uniqueness check stays small at any size.
 * `add` answers "maybe seen" on a fingerprint match; callers confirm with the ids themselves.
 */
class IdFingerprints {
  private slots = new Uint32Array(2 * 1024);
  private count = 0;

  /** False when the id's fingerprint was already present. */
  add(id: string): boolean {
    if (2 * (this.count + 1) > this.slots.length / 2) this.grow();
    const [a, b] = fingerprint(id);
    return this.insert(a, b);
  }

  private insert(a: number, b: number): boolean {
    const mask = this.slots.length / 2 - 1;
    for (let i = a & mask; ; i = (i + 1) & mask) {
      const x = slotAt(this.slots, 2 * i);
      const y = slotAt(this.slots, 2 * i + 1);
      if (x === 0 && y === 0) {
        this.slots[2 * i] = a;
        this.slots[2 * i + 1] = b;
        this.count++;
        return true;
      }
      if (x === a && y === b) return false;
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    this.count = 0;
    for (let i = 0; i < old.length; i += 2) {
      const a = slotAt(old, i);
      const b = slotAt(old, i + 1);
      if (a !== 0 || b !== 0) this.insert(a, b);
    }
  }
}

const slotAt = (slots: Uint32Array, i: number) => expectDefined(slots[i], "a slot within the table (index masked)");

/** Two FNV-1a 32-bit hashes with different offsets; never both zero (zero marks an empty slot). */
function fingerprint(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  // `| 1` yields a signed int32: `>>> 0` after it, or a high bit makes the value negative and it
  // never equals what the Uint32Array gives back (a shared id would go unseen).
  return [a >>> 0, (b | 1) >>> 0];
}
