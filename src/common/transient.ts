/**
 * Transient storage failures, and the one retry loop for them (docs/architecture.md, "Transient
 * storage errors"). D1 answers SQLITE_BUSY or loses a session's commit token while another writer
 * (a publish's load) holds the database; KV, R2 and Durable Objects lose connections and restart,
 * and locally answer workerd's bare internal error while another workerd holds their files' lock.
 * Each is worth a retry after a short, random wait; anything else (a constraint, a bad query, a
 * missing object) is not, and is thrown at once. Used by the worker's storage reads and by
 * publish and rollback, whose storage steps are idempotent.
 */

/** What marks a failure as transient, in the messages D1, KV, R2 and Durable Objects give. */
const TRANSIENT_MESSAGE = new RegExp(
  [
    "SQLITE_BUSY",
    "database is locked",
    "Failed to get session commit token",
    "Network connection lost",
    "Durable Object reset",
    "Durable Object is overloaded",
    "(?:storage|object|connection) (?:was )?reset",
    "internal error.*(?:try again|retry)",
    // workerd's own internal error: locally, what a KV or R2 call says when another workerd over
    // the same files (npm start's server, a publish) holds their SQLite lock.
    "^internal error; reference = ",
    "KV (?:GET|PUT) failed: 5\\d\\d",
  ].join("|"),
  "i",
);

/** True for a failure that may pass if tried again: its message, or the runtime's own `retryable` flag. */
export function isTransientStorageError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if ((error as { retryable?: unknown }).retryable === true) return true;
  return TRANSIENT_MESSAGE.test(error.message) || isTransientStorageError(error.cause);
}

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** The wait before the second try is at most this; each further one at most doubles it. */
  baseMs: number;
  /** No wait is longer than this. */
  capMs: number;
}

/**
 * A request's read: 4 tries, at most ~0.3 s of waits in all, so a request never hangs on storage
 * that stays busy; it is answered 503 storage_unavailable instead.
 */
export const READ_RETRIES: RetryPolicy = { attempts: 4, baseMs: 25, capMs: 200 };
/** A publish or rollback step: 8 tries over up to ~15 s, long enough for a busy database to free up. */
export const PUBLISH_RETRIES: RetryPolicy = { attempts: 8, baseMs: 100, capMs: 5_000 };

/**
 * `operation()`, tried again after a transient failure up to `policy.attempts` times in all, each
 * wait drawn uniformly from [0, min(cap, base × 2^(try − 1))) ("full jitter"), so clients that
 * failed together do not retry together. The last failure is thrown as it is.
 */
export async function retryTransient<T>(operation: () => Promise<T>, policy: RetryPolicy = READ_RETRIES): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= policy.attempts || !isTransientStorageError(error)) throw error;
      const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** (attempt - 1));
      await new Promise((resume) => setTimeout(resume, Math.random() * ceiling));
    }
  }
}
