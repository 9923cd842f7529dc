/**
 * `npm run bench [-- --quick | --smoke] [--only build,serve] [--sizes 10000] [--data-dir DIR] [--report FILE]`
 *
 * Runs the benchmark modules (bench/modules.ts), writes bench/out/report.md and prints a
 * summary. Every figure is a ratio against a floor measured in the same run on the same machine.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { expectDefined } from "../src/common/expect";
import { BenchRig } from "./bench-rig";
import { BENCH_MODULES, RUN_ORDER } from "./modules";
import { REPO } from "./measure";
import type { BenchModule, BenchPlan, BenchSection } from "./types";

const HELP = `Usage: npm run bench [-- --quick | --smoke] [--only NAMES] [--sizes COUNTS] [--data-dir DIR] [--report FILE]

Measures every benchmark module (${BENCH_MODULES.map((m) => m.name).join(", ")}) against floors measured in the
same run, writes bench/out/report.md and prints a summary.

Options:
  --quick          small sizes (1k and 5k, sync at 2k) and short loads, to compare a change (≈ 4 minutes)
  --smoke          the least that runs every module and prints every line (a few hundred profiles,
                   loads of 30 requests; ≈ 2 minutes): the test suite's check that the harness
                   works, its figures meaningless
  --only <names>   comma-separated modules to run
  --sizes <counts> comma-separated profile counts instead of a module's own (query, d1load), e.g. 10000
  --data-dir <dir> where generated catalogs are cached (default: <tmp>/readiness-catalog-bench)
  --report <file>  where the report goes (default: bench/out/report.md)
  -h, --help       this help`;

function usage(message: string): never {
  process.stderr.write(`bench: ${message}\nRun with --help for usage.\n`);
  process.exit(2);
}

const parseBenchArgs = () =>
  parseArgs({
    options: {
      quick: { type: "boolean", default: false },
      smoke: { type: "boolean", default: false },
      only: { type: "string" },
      sizes: { type: "string" },
      "data-dir": { type: "string" },
      report: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  }).values;

let args: ReturnType<typeof parseBenchArgs>;
try {
  args = parseBenchArgs();
} catch (error) {
  usage((error as Error).message);
}
if (args.help) {
  process.stdout.write(`${HELP}\n`);
  process.exit(0);
}
if (args.quick && args.smoke) usage("--quick and --smoke are two plans: give one");
const plan: BenchPlan = args.smoke ? "smoke" : args.quick ? "quick" : "full";
const only = args.only?.split(",").map((s) => s.trim());
const unknown = only?.filter((name) => !BENCH_MODULES.some((m) => m.name === name)) ?? [];
if (unknown.length)
  usage(`unknown module ${unknown.join(", ")}; known: ${BENCH_MODULES.map((m) => m.name).join(", ")}`);
const sizes = args.sizes?.split(",").map((s) => Number(s.trim()));
if (sizes?.some((n) => !Number.isInteger(n) || n < 1))
  usage(`--sizes takes positive whole profile counts, e.g. 10000,100000 (got ${args.sizes})`);
const modules = RUN_ORDER.filter((m) => !only || only.includes(m.name));
const dataDir = path.resolve(args["data-dir"] ?? path.join(tmpdir(), "readiness-catalog-bench"));
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

const started = new Date();
const oneMinuteLoad = () => expectDefined(loadavg()[0], "the 1-minute load average");
const loadBefore = oneMinuteLoad();
const measured = new Map<BenchModule, BenchSection>();
const rig = new BenchRig(dataDir, log);
try {
  for (const module of modules) {
    log(`${module.name}…`);
    measured.set(module, await module.run({ plan, rig, ...(sizes && { sizes }), dataDir, log }));
  }
} catch (error) {
  // What the servers printed is usually the reason (e.g. a worker that failed to load).
  throw new Error(`${error instanceof Error ? error.message : String(error)}\n${rig.serverLogs()}`, { cause: error });
} finally {
  await rig.close();
}

const sections = BENCH_MODULES.flatMap((module) => measured.get(module) ?? []);
// The load average says how much else ran on the machine meanwhile (ratios absorb some of it).
const load = `load average ${loadBefore.toFixed(1)} → ${oneMinuteLoad().toFixed(1)}`;
const machine = `${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${process.platform}, ${load}`;
const table = (s: BenchSection) =>
  [
    `| ${s.columns.join(" | ")} |`,
    `|${s.columns.map(() => "---").join("|")}|`,
    ...s.rows.map((r) => `| ${s.columns.map((c) => String(r[c] ?? "")).join(" | ")} |`),
  ].join("\n");
const report = [
  `# Benchmark report${plan === "full" ? "" : ` (${plan})`}`,
  "",
  `${started.toISOString()} · ${machine} · \`npm run bench${plan === "full" ? "" : ` -- --${plan}`}\``,
  "",
  ...sections.flatMap((s) => [
    `## ${s.title}`,
    "",
    s.method,
    "",
    table(s),
    "",
    ...s.summary.map((line) => `- ${line}`),
    "",
  ]),
].join("\n");
const reportFile = path.resolve(args.report ?? path.join(REPO, "bench", "out", "report.md"));
mkdirSync(path.dirname(reportFile), { recursive: true });
writeFileSync(reportFile, report);
process.stdout.write(
  `${sections.flatMap((s) => s.summary).join("\n")}\nReport: ${path.relative(process.cwd(), reportFile) || reportFile} (${machine})\n`,
);
