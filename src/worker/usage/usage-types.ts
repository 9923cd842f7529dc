/**
 * The shapes of usage answers, apart from the reads that make them, so that the operator CLI
 * (Node, src/node/operator/usage-command.ts) types them without the worker's bindings.
 */

export interface UsagePoint {
  start: string;
  requests: number;
  errors: number;
  rate_limited: number;
}

export interface UsageReport {
  totals: { requests: number; by_status: Record<string, number>; by_code: Record<string, number>; bytes: number };
  series: UsagePoint[];
}

export interface UsageRank {
  account_id: string;
  /** The key id or OAuth grant id; absent in the accounts' ranking. */
  key_id?: string;
  requests: number;
  errors: number;
}

export interface OperatorUsage extends UsageReport {
  unauthenticated: { requests: number; by_status: Record<string, number>; by_code: Record<string, number> };
  top_accounts: { by_requests: UsageRank[]; by_errors: UsageRank[] };
  top_keys: { by_requests: UsageRank[]; by_errors: UsageRank[] };
}
