/**
 * A real binding (KV, R2, a Durable Object namespace) whose method calls are reported to `record`
 * before they run, so a test can assert which storage a request touched.
 */
export function recordingBinding<T extends object>(binding: T, record: (method: string, args: unknown[]) => void): T {
  return new Proxy(binding, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        record(String(property), args);
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
