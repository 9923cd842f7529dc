/**
 * Bench-only (never deployed): the SUBJECT_GUARDS binding as if every SubjectGuard were `delayMs` of round
 * trip away — half before each RPC reaches it, half before the answer comes back — the way a
 * Durable Object in another region is on Cloudflare. The delay is the harness's, not the worker's:
 * bench/workers/limiter-switch.ts wraps the binding per request under the request header
 * `Bench-Guard-Delay-Ms`, and production code never sees it.
 */
export const GUARD_DELAY_HEADER = "Bench-Guard-Delay-Ms";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A stub whose every method call takes `delayMs` longer, split evenly both ways. */
function farStub<T extends object>(stub: T, delayMs: number): T {
  return new Proxy(stub, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (typeof value !== "function") return value;
      // Reflect.apply: a method of an RPC stub is itself a stub, on which `.apply` would be an RPC.
      return async (...args: unknown[]) => {
        await sleep(delayMs / 2);
        const result: unknown = await Reflect.apply(value, target, args);
        await sleep(delayMs / 2);
        return result;
      };
    },
  });
}

export function farGuards(namespace: Env["SUBJECT_GUARDS"], delayMs: number): Env["SUBJECT_GUARDS"] {
  return new Proxy(namespace, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (property === "getByName") return (name: string) => farStub(target.getByName(name), delayMs);
      return typeof value === "function" ? (...args: unknown[]) => Reflect.apply(value, target, args) : value;
    },
  });
}

/** The request's bindings: the real ones, or with far SubjectGuards when the request asks for it. */
export function bindingsFor(request: Request, env: Env): Env {
  const delayMs = Number(request.headers.get(GUARD_DELAY_HEADER) ?? 0);
  return delayMs > 0 ? { ...env, SUBJECT_GUARDS: farGuards(env.SUBJECT_GUARDS, delayMs) } : env;
}
