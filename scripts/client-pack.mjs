/**
 * `npm run client:pack`: compiles packages/client (tsc: ESM JavaScript + .d.ts in its dist/) and
 * packs it with `npm pack` into dist/client/, printing the tarball's path. Plain Node, so it needs
 * no TypeScript loader; install the result with `npm install <path>`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const PACKAGE = path.join(REPO, "packages/client");
const DESTINATION = path.join(REPO, "dist/client");

/** Runs a command to completion, its output on stderr; stops here if it fails. */
function run(command, args, cwd = REPO) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (result.status !== 0) {
    process.stderr.write(result.stdout ?? "");
    console.error(
      `client:pack: ${path.basename(command)} ${args.join(" ")} failed (${result.error?.message ?? `exit ${result.status}`})`,
    );
    process.exit(1);
  }
  return result.stdout;
}

rmSync(path.join(PACKAGE, "dist"), { recursive: true, force: true });
run(process.execPath, [path.join(REPO, "node_modules/typescript/bin/tsc"), "-p", PACKAGE]);
mkdirSync(DESTINATION, { recursive: true });
// npm runs this script with npm_execpath set to its own CLI; from a plain shell, the npm on PATH.
const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ["npm", []];
const packed = JSON.parse(run(npm[0], [...npm[1], "pack", "--json", "--pack-destination", DESTINATION], PACKAGE));
console.log(path.join(DESTINATION, packed[0].filename));
