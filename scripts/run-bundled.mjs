/**
 * `node scripts/run-bundled.mjs <script.ts> [args…]`: runs a TypeScript script of this repository
 * from an esbuild bundle of its own code (npm packages stay imports), without a TypeScript loader.
 * `npm run catalog:build` starts this way: tsx's loader cost it ~0.15–0.2 s of start-up (`--help`:
 * 0.27–0.32 s with tsx, 0.11–0.13 s bundled; the 10k build 0.90–0.93 s against 0.78–0.84 s, the
 * 100k build 4.13–5.11 s against 3.90–4.22 s, three alternated runs each).
 *
 * The bundle is kept in node_modules/.cache/scripts and made again (~50 ms) when any file that went
 * into it changed (scripts/bundle-cache.mjs). `import.meta.url`, `.dirname` and `.filename` keep
 * meaning the source file each appears in, so paths relative to a module still resolve.
 */
import { build } from "esbuild";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { freshBundle, keepBundle } from "./bundle-cache.mjs";

const REPO = fileURLToPath(new URL("..", import.meta.url));
// Inside node_modules, so that the packages the bundle imports resolve from it.
const CACHE_DIR = path.join(REPO, "node_modules/.cache/scripts");

/** Each module's `import.meta` location, as it would be without the bundle. */
const importMetaOfSource = {
  name: "import-meta-of-source",
  setup(bundler) {
    bundler.onLoad({ filter: /\.[cm]?ts$/ }, async ({ path: file }) => {
      const source = await readFile(file, "utf8");
      const contents = source
        .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(file).href))
        .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(file)))
        .replaceAll("import.meta.filename", JSON.stringify(file));
      return { contents, loader: "ts" };
    });
  },
};

/**
 * The path of an up-to-date bundle of `entry`, made now if needed; undefined when it could not be
 * kept (no writable cache, or one of its files was edited while it was being bundled).
 */
export async function bundledScript(entry, cacheDir = CACHE_DIR) {
  const source = path.resolve(entry);
  // One bundle per entry, named by its path in the repository: scripts/catalog-build.ts → scripts_catalog-build.
  const name = path.relative(REPO, source).replace(/\.[cm]?ts$/, "").replace(/[^\w.-]+/g, "_");
  const cached = freshBundle(cacheDir, name, source);
  if (cached) return cached;
  const started = Date.now();
  const { outputFiles, metafile } = await build({
    entryPoints: [source],
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node22",
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins: [importMetaOfSource],
  });
  const code = outputFiles[0].contents;
  try {
    return keepBundle(cacheDir, name, source, code, Object.keys(metafile.inputs), started);
  } catch {
    return undefined;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [entry, ...args] = process.argv.slice(2);
  if (!entry) {
    console.error("usage: node scripts/run-bundled.mjs <script.ts> [args…]");
    process.exit(2);
  }
  const bundle = await bundledScript(entry);
  // The script reads its own arguments from process.argv, as if Node had started it directly.
  process.argv = [process.argv[0], path.resolve(entry), ...args];
  if (bundle) await import(pathToFileURL(bundle).href);
  else {
    // Without a kept bundle, the source itself through tsx: slower to start, same behaviour.
    const { register } = await import("tsx/esm/api");
    register();
    await import(pathToFileURL(path.resolve(entry)).href);
  }
}
