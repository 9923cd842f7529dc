/**
 * Publish's and rollback's storage with every call tried again after a transient failure
 * (src/common/transient.ts, PUBLISH_RETRIES): D1 busy while the worker reads the same database
 * (`npm start` and the CLI are two processes over one SQLite file), a lost connection to R2 or KV.
 * Every step is idempotent — create-only R2 puts, KV puts of the same value, D1 batches of
 * `INSERT OR REPLACE` / `OR IGNORE` and deletes — so a try whose write landed but whose answer was
 * lost is harmless to repeat.
 */
import { PUBLISH_RETRIES, retryTransient } from "../../common/transient";
import type { QueryDb, QueryStatement } from "./query-load";

const retried = <T>(operation: () => Promise<T>) => retryTransient(operation, PUBLISH_RETRIES);

/** `binding` (R2 bucket, KV namespace) with each method call retried. */
function retryingCalls<T extends object>(binding: T): T {
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
  constructor(readonly inner: QueryStatement) {}
  bind(...values: unknown[]): QueryStatement {
    return new RetryingStatement(this.inner.bind(...values));
  }
  first<T = Record<string, unknown>>(): Promise<T | null> {
    return retried(() => this.inner.first<T>());
  }
}

const unwrapped = (statement: QueryStatement) => (statement instanceof RetryingStatement ? statement.inner : statement);

function retryingDb(db: QueryDb): QueryDb {
  return {
    prepare: (query) => new RetryingStatement(db.prepare(query)),
    batch: (statements) => retried(() => db.batch(statements.map(unwrapped))),
  };
}

/** Publish's storage (its ReleaseStorage) with every call retried. */
export function retryingStorage<S extends { bucket: object; kv: object; db: QueryDb }>(storage: S): S {
  return {
    ...storage,
    bucket: retryingCalls(storage.bucket),
    kv: retryingCalls(storage.kv),
    db: retryingDb(storage.db),
  };
}
