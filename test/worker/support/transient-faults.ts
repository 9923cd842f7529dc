/**
 * Real bindings that fail their first `failures` reads with the message a busy or reconnecting
 * store gives (src/common/transient.ts), then behave as themselves: how the tests make D1 busy
 * or R2 drop a connection on demand, and count the failures each request met.
 */
import type { ReleaseStorage } from "../../../src/node/catalog/publish";

const BUSY = "D1_ERROR: database is locked: SQLITE_BUSY";
export const CONNECTION_LOST = "Network connection lost.";
/** All a KV or R2 call says locally when another workerd over the same files holds their SQLite lock. */
export const WORKERD_INTERNAL = "internal error; reference = su97qh9oeoisu0terqrptta0";

export interface Faults {
  /** Failures still to give. */
  remaining: number;
  /** Failures given so far. */
  given: number;
  /** Only every `every`-th call fails (the 1st, the 1 + every-th, …). */
  every: number;
  calls: number;
}

export function faults(count: number, every = 1): Faults {
  return { remaining: count, given: 0, every, calls: 0 };
}

function failing(fault: Faults, message: string): void {
  if (fault.calls++ % fault.every !== 0 || fault.remaining <= 0) return;
  fault.remaining--;
  fault.given++;
  throw new Error(message);
}

/** `methods` of `target` fail while `fault` has failures left; everything else is the real binding. */
export function flaky<T extends object>(target: T, methods: readonly string[], fault: Faults, message: string): T {
  return new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property) as unknown;
      if (typeof value !== "function") return value;
      if (!methods.includes(String(property))) return value.bind(object);
      return async (...args: unknown[]) => {
        failing(fault, message);
        return (value as (...args: unknown[]) => unknown).apply(object, args);
      };
    },
  });
}

/** A D1 database whose sessions' batches (the query routes' one read) fail as busy. */
export function busyD1(db: D1Database, fault: Faults): D1Database {
  return new Proxy(db, {
    get(object, property) {
      const value = Reflect.get(object, property) as unknown;
      if (property === "withSession")
        return (...args: Parameters<D1Database["withSession"]>) =>
          flaky(object.withSession(...args), ["batch"], fault, BUSY);
      return typeof value === "function" ? value.bind(object) : value;
    },
  });
}

/**
 * Publish's storage (the real bindings) where `fault` fails R2, KV and D1 batch calls as
 * transient; with `faults(n, 2)`, every other call, so each call the publish makes fails at least
 * once unless it is tried again.
 */
export function flakyStorage(storage: ReleaseStorage, fault: Faults): ReleaseStorage {
  return {
    bucket: flaky(storage.bucket, ["put", "get", "head"], fault, CONNECTION_LOST),
    kv: flaky(storage.kv, ["put", "get"], fault, CONNECTION_LOST),
    db: {
      prepare: (query) => storage.db.prepare(query),
      batch: async (statements) => {
        failing(fault, BUSY);
        return storage.db.batch(statements);
      },
    },
  };
}
