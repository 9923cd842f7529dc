/** Types of scripts/run-bundled.mjs (plain JavaScript: it starts before any TypeScript loader). */
export declare function bundledScript(entry: string, cacheDir?: string): Promise<string | undefined>;
