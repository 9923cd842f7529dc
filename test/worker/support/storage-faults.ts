/**
 * Wrappers around the real bindings for publish tests: count the writes a publish makes, or make
 * the (k+1)-th write fail as if the operator's machine lost its connection there.
 */
import type { ReleaseStorage } from "../../../src/node/catalog/publish";

export class SimulatedOutage extends Error {}

export interface CountingStorage extends ReleaseStorage {
  /** Every write attempted, in order: "r2 <key>", "kv <key>" or "d1 batch". */
  readonly writes: string[];
}

export function countingStorage(storage: ReleaseStorage, failAfterWrites = Infinity): CountingStorage {
  const writes: string[] = [];
  const attempt = (what: string) => {
    if (writes.length >= failAfterWrites) throw new SimulatedOutage(`simulated outage before ${what}`);
    writes.push(what);
  };
  return {
    writes,
    bucket: {
      // One wrapper for both put signatures (release objects and stored changes).
      put: (async (key: string, ...rest: unknown[]) => {
        attempt(`r2 ${key}`);
        return (storage.bucket.put as (key: string, ...rest: unknown[]) => Promise<unknown>)(key, ...rest);
      }) as ReleaseStorage["bucket"]["put"],
      head: (key) => storage.bucket.head(key),
      // One wrapper for both get signatures (the manifest record's and the stored changes').
      get: ((key: string, ...rest: unknown[]) =>
        (storage.bucket.get as (key: string, ...rest: unknown[]) => Promise<unknown>)(
          key,
          ...rest,
        )) as ReleaseStorage["bucket"]["get"],
    },
    kv: {
      put: async (key, value) => {
        attempt(`kv ${key}`);
        return storage.kv.put(key, value);
      },
      get: (key) => storage.kv.get(key),
    },
    db: {
      prepare: (query) => storage.db.prepare(query),
      batch: async (statements) => {
        attempt("d1 batch");
        return storage.db.batch(statements);
      },
    },
  };
}
