/**
 * `npm run catalog:generate -- --count N --out file.ndjson [--seed S]`
 *
 * Writes N deterministic, valid, varied profiles as ndjson (one per line), streaming: memory does
 * not grow with N. About 4.6 KB per profile, so 100,000 profiles are about 460 MB.
 */
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { generateProfiles } from "./generator";
import { type CliIo, cliCommand, EXIT, UsageError } from "../../cli/cli-run";

const HELP = `Usage: npm run catalog:generate -- --count N --out file.ndjson [--seed S]

Writes N generated profiles (fictional products, every rule satisfied) as ndjson, one per line.
The same --count and --seed always give the same bytes. About 4.6 KB per profile.

Options:
  --count <n>    how many profiles (required)
  --out <file>   output .ndjson file (required; its directory is created)
  --seed <s>     PRNG seed, an integer (default 1)
  -h, --help     this help

Example: npm run catalog:generate -- --count 100000 --out /tmp/catalog-100k.ndjson`;

function wholeNumber(name: string, raw: string | undefined, fallback?: number): number {
  if (raw === undefined && fallback !== undefined) return fallback;
  if (raw === undefined || !/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)))
    throw new UsageError(`--${name} must be a whole number, got ${raw === undefined ? "nothing" : `"${raw}"`}`);
  return Number(raw);
}

const parseGenerateArgs = (argv: string[]) =>
  parseArgs({
    args: argv,
    options: {
      count: { type: "string" },
      out: { type: "string" },
      seed: { type: "string" },
    },
    strict: true,
  }).values;

/** `npm run catalog:generate` (scripts/generate-profiles.ts): its door, and its run in process. */
export const catalogGenerate = cliCommand("catalog:generate", HELP, async (argv, io) => {
  writeProfiles(argv, io);
  return EXIT.ok;
});

function writeProfiles(argv: string[], io: CliIo): void {
  const values = parseGenerateArgs(argv);
  const count = wholeNumber("count", values.count);
  const seed = wholeNumber("seed", values.seed, 1);
  if (!values.out) throw new UsageError("--out is required");

  const started = performance.now();
  mkdirSync(path.dirname(path.resolve(values.out)), { recursive: true });
  const fd = openSync(values.out, "w");
  let pending = "";
  let bytes = 0;
  const flush = () => {
    const chunk = Buffer.from(pending);
    for (let done = 0; done < chunk.length; ) done += writeSync(fd, chunk, done);
    bytes += chunk.length;
    pending = "";
  };
  for (const profile of generateProfiles(count, seed)) {
    pending += `${JSON.stringify(profile)}\n`;
    if (pending.length > 1 << 20) flush();
  }
  flush();
  closeSync(fd);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  io.out(`Generated ${count} profiles (${bytes} bytes, seed ${seed}) into ${values.out} in ${seconds} s`);
}
