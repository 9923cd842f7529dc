/**
 * Publish's and rollback's storage with every call tried again after a transient failure
 * (src/common/transient.ts, PUBLISH_RETRIES): D1 busy while the worker reads the same database
 * (`npm start` and the CLI are two processes over one SQLite file), a lost connection to R2 or KV.
 * Every step is idempotent — create-only R2 puts, KV puts of the same value, D1 batches of
 * `INSERT OR REPLACE` / `OR IGNORE` and deletes — so a try whose write landed but whose answer was
 * lost is harmless to repeat.
 */
import { PUBLISH_RETRIES, type RetryPolicy, retryTransient } from "../../common/transient";
import type { QueryDb, QueryStatement } from "./query-load";

type Retried = <T>(operation: () => Promise<T>) => Promise<T>;

/** `binding` (R2 bucket, KV namespace) with each method call retried. */
function retryingCalls<T extends object>(binding: T, retried: Retried): T {
  return new Proxy(binding, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => retried(async () => (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}

/** A statement whose `first()` is retried; D1's `batch` is given the statement it wraps. */
class RetryingStatement implements QueryStatement {
  constructor(
    readonly inner: QueryStatement,
    private readonly retried: Retried,
  ) {}
  bind(...values: unknown[]): QueryStatement {
    return new RetryingStatement(this.inner.bind(...values), this.retried);
  }
  first<T = Record<string, unknown>>(): Promise<T | null> {
    return this.retried(() => this.inner.first<T>());
  }
}

const unwrapped = (statement: QueryStatement) => (statement instanceof RetryingStatement ? statement.inner : statement);

function retryingDb(db: QueryDb, retried: Retried): QueryDb {
  return {
    prepare: (query) => new RetryingStatement(db.prepare(query), retried),
    batch: (statements) => retried(() => db.batch(statements.map(unwrapped))),
  };
}

/** Publish's storage (its ReleaseStorage) with every call retried under `policy`. */
export function retryingStorage<S extends { bucket: object; kv: object; db: QueryDb }>(
  storage: S,
  policy: RetryPolicy = PUBLISH_RETRIES,
): S {
  const retried: Retried = (operation) => retryTransient(operation, policy);
  return {
    ...storage,
    bucket: retryingCalls(storage.bucket, retried),
    kv: retryingCalls(storage.kv, retried),
    db: retryingDb(storage.db, retried),
  };
}
