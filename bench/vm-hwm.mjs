// This process's peak RSS: VmHWM of /proc/self/status (Linux). Not getrusage's ru_maxrss, which a
// spawned child inherits from its parent at fork (a child of a 300 MB bench process reports ≥ 300 MB).
import { readFileSync } from "node:fs";

export function peakRssBytes() {
  const kib = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
  if (kib === undefined)
    throw new Error("no VmHWM in /proc/self/status (the benchmark reads peak memory the Linux way)");
  return Number(kib) * 1024;
}
