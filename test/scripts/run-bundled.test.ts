/**
 * scripts/run-bundled.mjs, which `npm run catalog:build` starts through: a script's own code
 * bundled once (npm packages stay imports), kept while none of its files changed, made again when
 * one did; `import.meta` keeps meaning each source file; without a writable cache, no bundle.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { bundledScript } from "../../scripts/run-bundled.mjs";

const repo = path.resolve(import.meta.dirname, "../..");
const NODE = path.join(repo, "node_modules/.bin/node");
const root = mkdtempSync(path.join(tmpdir(), "run-bundled-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** An entry that imports a module of another directory; each prints where it believes it is. */
function fixture() {
  const dir = mkdtempSync(path.join(root, "src-"));
  mkdirSync(path.join(dir, "lib"));
  writeFileSync(path.join(dir, "lib", "where.ts"), 'export const where = (): string[] => [import.meta.url, import.meta.dirname, import.meta.filename];\n');
  writeFileSync(
    path.join(dir, "main.ts"),
    'import { where } from "./lib/where";\nconst own: string[] = [import.meta.url, import.meta.dirname, import.meta.filename];\nconsole.log(JSON.stringify({ own, lib: where(), args: process.argv.slice(2) }));\n',
  );
  return { dir, entry: path.join(dir, "main.ts"), lib: path.join(dir, "lib", "where.ts") };
}

const run = (bundle: string) => JSON.parse(spawnSync(NODE, [bundle], { encoding: "utf8" }).stdout) as { own: string[]; lib: string[]; args: string[] };

describe("run-bundled", () => {
  it("bundles a script so that import.meta still names each source file", async () => {
    const { dir, entry, lib } = fixture();
    const bundle = await bundledScript(entry, path.join(root, "cache-a"));
    expect(bundle).toBeDefined();
    expect(path.dirname(bundle!)).toBe(path.join(root, "cache-a"));
    const printed = run(bundle!);
    expect(printed.own).toEqual([pathToFileURL(entry).href, dir, entry]);
    expect(printed.lib).toEqual([pathToFileURL(lib).href, path.join(dir, "lib"), lib]);
  });

  it("keeps the bundle while no file changed and makes it again when one did", async () => {
    const { entry, lib } = fixture();
    const cache = path.join(root, "cache-b");
    const bundle = (await bundledScript(entry, cache))!;
    const made = statSync(bundle).mtimeMs;
    expect(await bundledScript(entry, cache)).toBe(bundle);
    expect(statSync(bundle).mtimeMs).toBe(made);

    appendFileSync(lib, 'export const edited = "edited";\nconsole.log("edited");\n');
    expect(await bundledScript(entry, cache)).toBe(bundle);
    expect(readFileSync(bundle, "utf8")).toContain("edited");
  });

  it("gives no bundle when the cache cannot be written", async () => {
    const { entry } = fixture();
    const blocked = path.join(root, "not-a-dir");
    writeFileSync(blocked, "a file where the cache directory would go");
    expect(await bundledScript(entry, path.join(blocked, "cache"))).toBeUndefined();
  });

  it("bundles only the repository's code: npm packages stay imports", async () => {
    const bundle = (await bundledScript(path.join(repo, "scripts/catalog-build.ts"), path.join(root, "cache-c")))!;
    const code = readFileSync(bundle, "utf8");
    expect(code).toMatch(/from "@hono\/zod-openapi"/);
    expect(code).toMatch(/from "esbuild"/);
    expect(code).toContain("function buildCatalog(");
  });

  it("runs a script with its own arguments, as Node would have", () => {
    const result = spawnSync(NODE, [path.join(repo, "scripts/run-bundled.mjs"), path.join(repo, "scripts/catalog-build.ts"), "--help"], { encoding: "utf8", cwd: root });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Usage: npm run catalog:build -- --in/);
  });
});
