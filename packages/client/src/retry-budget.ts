/**
 * A retry budget shared by every request of one client: retries spend tokens, successes earn a
 * fraction of one back. When a server keeps failing, the client stops adding retries to its load
 * instead of multiplying it (the retry-budget pattern of Finagle and gRPC's retry throttling).
 */
export interface RetryBudgetOptions {
  /** Retries available at the start (and the most that can be saved up). */
  maxTokens: number;
  /** Tokens a successful request earns back. */
  tokensPerSuccess: number;
}

export const DEFAULT_RETRY_BUDGET: RetryBudgetOptions = { maxTokens: 20, tokensPerSuccess: 0.2 };

export class RetryBudget {
  private tokens: number;

  constructor(private readonly options: RetryBudgetOptions = DEFAULT_RETRY_BUDGET) {
    this.tokens = options.maxTokens;
  }

  /** Takes one retry from the budget; false when none is left. */
  trySpend(): boolean {
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  earn(): void {
    this.tokens = Math.min(this.options.maxTokens, this.tokens + this.options.tokensPerSuccess);
  }

  get remaining(): number {
    return this.tokens;
  }
}
