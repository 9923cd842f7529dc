/** Types of scripts/bundle-cache.mjs (plain JavaScript, so that it runs before any TypeScript loader). */
export declare function freshBundle(cacheDir: string, name: string, entry: string): string | undefined;
export declare function keepBundle(cacheDir: string, name: string, entry: string, code: string | Uint8Array, inputs: string[], startedMs: number): string;
