/**
 * Generated catalogs for the benchmark, cached in the data directory: the file name carries the
 * count, the seed and a digest of the generator's source, so a changed generator regenerates.
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateProfiles } from "../src/node/catalog/build/generator";

const GENERATOR_SOURCES = ["generator.ts", "profile-factory.ts", "signal-texts.ts"].map((f) =>
  fileURLToPath(new URL(`../src/node/catalog/build/${f}`, import.meta.url)),
);

function generatorDigest(): string {
  const hash = createHash("sha256");
  for (const file of GENERATOR_SOURCES) hash.update(readFileSync(file));
  return hash.digest("hex").slice(0, 10);
}

export interface Dataset {
  file: string;
  profiles: number;
  bytes: number;
}

/** An ndjson catalog of `count` generated profiles (seed 1), generated once and then reused. */
export function dataset(dataDir: string, count: number, log: (line: string) => void): Dataset {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, `profiles-${count}-seed1-${generatorDigest()}.ndjson`);
  if (!existsSync(file)) {
    log(`generating ${count} profiles into ${file}`);
    const partial = `${file}.partial`;
    const fd = openSync(partial, "w");
    let pending = "";
    const flush = () => {
      const bytes = Buffer.from(pending);
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
      pending = "";
    };
    for (const profile of generateProfiles(count, 1)) {
      pending += `${JSON.stringify(profile)}\n`;
      if (pending.length > 1 << 20) flush();
    }
    flush();
    closeSync(fd);
    renameSync(partial, file);
  }
  return { file, profiles: count, bytes: statSync(file).size };
}
