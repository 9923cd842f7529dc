/**
 * What an isolate remembers between requests: caches of immutable records (manifests, index
 * directory pages) and of briefly valid ones (`current`, key records, refused addresses). Each is
 * made here, so that all of it can be forgotten at once: the worker's test files share one isolate
 * (vitest.config.ts), and each file starts as a fresh deployment does, with empty storage and an
 * isolate that remembers nothing.
 */
const forgetters: (() => void)[] = [];

/** A Map this isolate keeps across requests. */
export function isolateMap<K, V>(): Map<K, V> {
  const map = new Map<K, V>();
  forgetters.push(() => map.clear());
  return map;
}

/** Empties every isolateMap: the isolate then behaves as a new one. */
export function forgetIsolateMemory(): void {
  for (const forget of forgetters) forget();
}
