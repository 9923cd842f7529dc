/**
 * What the API serves, as the client hands it out: a release's manifest (README "Catalog") and a
 * profile (the shape `GET /openapi.json` names Profile). test/node/client-types.test.ts keeps
 * these equal to the schemas the worker validates with.
 */
export interface PartEntry {
  index: number;
  offset: number;
  length: number;
  sha256: string;
}

export interface Manifest {
  release_id: string;
  artifact_sha256: string;
  api_contract: string;
  /** Size of the whole document in bytes. */
  bytes: number;
  /** SHA-256 of the whole document's bytes. */
  sha256: string;
  part_bytes: number;
  profile_count: number;
  published_at: string | null;
  parts: PartEntry[];
}

export type StageName = "evaluate" | "sign_up" | "pay" | "provision" | "operate";
export type Outcome = "pass" | "constrained";
export type PublicState = "ready" | "limited";

export interface Finding {
  signal_code: string;
  condition: string;
  finding: string;
  context: string;
}

export interface Stage {
  stage: StageName;
  stage_label: string;
  outcome: Outcome;
  public_state: PublicState;
  state_label: string;
  primary_finding: Finding;
}

export interface ScopeKey {
  key: string;
  name: string;
}

export interface Profile {
  agent_readiness_profile_id: string;
  entity_id: string;
  scope: { product: ScopeKey; funnel: ScopeKey };
  declaration_revision_digest: string;
  lifecycle: "active";
  effective_from: string;
  revision_digest: string;
  policy_digest: string;
  policy_version: string;
  policy_as_of: string;
  overall_outcome: Outcome;
  public_state: PublicState;
  state_label: string;
  grade: "A" | "B+" | "B" | "C+" | "C" | "D" | "F";
  grade_derivation: { label: string; explanation: string; coverage_rule: string; outcome_rule: string };
  publication: { visibility: "discoverable"; reasons: unknown[] };
  primary_finding: { stage: StageName; stage_label: string; public_state: PublicState; finding: Finding };
  coverage: {
    status: "complete" | "incomplete";
    required_signals: number;
    covered_signals: number;
    ratio: number;
    barrier_signals: number;
    verified_barrier_signals: number;
    barrier_ratio: number;
  };
  last_tested_at: string;
  freshness: "fresh";
  canonical_url: string;
  projection_digest: string;
  stages: Stage[];
  provenance: { freshness: "fresh"; dispute: "none"; vendor_attestation: { status: "none" } };
}

/** Reported while a release is streamed or downloaded. */
export interface Progress {
  /** "download" while parts come in (fetched, or reused by download()); "verified" once every check passed. */
  phase: "download" | "verified";
  bytesDone: number;
  bytesTotal: number;
  partsDone: number;
  partsTotal: number;
  /** Parts that were already present locally with the manifest's sha256 (download() only). */
  partsReused: number;
}

export interface CallOptions {
  /** Cancels the call: it rejects with `signal.reason` (an `AbortError` DOMException by default). */
  signal?: AbortSignal;
}

/** Options of the calls that write a local copy (Node: `download()`, `sync()`). */
export interface WriteOptions {
  /**
   * Flush the new copy to the disk (fsync the file, then its directory) before the call resolves,
   * so it survives an OS crash or power loss. Costs a write-back of the whole document to the
   * disk. Default false: the copy replaces the old one by rename (atomic: readers and a stopped
   * process see the old copy or the new one), and the kernel writes it back when it chooses.
   */
  durable?: boolean;
}

export interface ReleaseOptions extends CallOptions {
  /** A release id (`sha256:<hex>` or `<hex>`) to read instead of the current release. */
  release?: string;
  onProgress?: (progress: Progress) => void;
}
