/**
 * Catalog-wide rules: one policy (digest and version) for the whole catalog, unique profile ids,
 * unique (product, funnel) scopes. Built for a streaming build in two passes with memory that does
 * not hold the catalog: `CatalogTally` sees every profile once in any order (policy counts and the
 * set of ids); `CatalogOrderCheck` then sees them in catalog order, where equal scopes are adjacent.
 */
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
  private readonly ids = new Set<string>();
  readonly duplicateIds = new Set<string>();

  observe(entry: Pick<CatalogEntry, "id" | "policyDigest" | "policyVersion">): void {
    const policy = JSON.stringify([entry.policyDigest, entry.policyVersion]);
    this.policies.set(policy, (this.policies.get(policy) ?? 0) + 1);
    if (this.ids.has(entry.id)) this.duplicateIds.add(entry.id);
    else this.ids.add(entry.id);
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
      out.push({ entry, rule: "policy-consistency", path: "policy_digest", message: "every profile of a catalog is graded under one policy", expected: describe(policy.policy_digest), found: describe(entry.policyDigest) });
    }
    if (policy && entry.policyVersion !== policy.policy_version) {
      out.push({ entry, rule: "policy-consistency", path: "policy_version", message: "every profile of a catalog is graded under one policy", expected: describe(policy.policy_version), found: describe(entry.policyVersion) });
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
