// The build benchmark's floor, in a plain Node process (no TypeScript, no threads): read the ndjson
// catalog, JSON.parse every line, SHA-256 every byte, JSON.stringify every profile. Any build has to
// do at least this much. Prints {seconds, cpu_seconds, max_rss_bytes, bytes, profiles} as JSON.
import { createHash } from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";

const file = process.argv[2];
const started = performance.now();
const hash = createHash("sha256");
const fd = openSync(file, "r");
let carry = Buffer.alloc(0);
let bytes = 0;
let profiles = 0;
let serialized = 0;
const chunk = Buffer.allocUnsafe(1 << 20);
for (;;) {
  const got = readSync(fd, chunk, 0, chunk.length, null);
  const data = carry.length ? Buffer.concat([carry, chunk.subarray(0, got)]) : chunk.subarray(0, got);
  hash.update(data.subarray(carry.length));
  bytes += got;
  let start = 0;
  const last = got === 0 ? data.length : data.lastIndexOf(10) + 1;
  while (start < last) {
    let end = data.indexOf(10, start);
    if (end === -1 || end > last) end = last;
    if (end > start) {
      serialized += JSON.stringify(JSON.parse(data.toString("utf8", start, end))).length;
      profiles++;
    }
    start = end + 1;
  }
  carry = Buffer.from(data.subarray(last));
  if (got === 0) break;
}
closeSync(fd);
hash.digest("hex");
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage();
const cpu_seconds = (cpu.user + cpu.system) / 1e6;
process.stdout.write(
  `${JSON.stringify({ seconds, cpu_seconds, max_rss_bytes: process.resourceUsage().maxRSS * 1024, bytes, profiles, serialized })}\n`,
);
