/** CPU time of this process and of the processes it started (workerd under wrangler's proxy), from /proc (Linux). */
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100;

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

function cpuSecondsOf(pid: number): number {
  try {
    // The fields after the command (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Seconds of CPU used so far by the processes this one started, and theirs (not this process). */
export function childrenCpuSeconds(pid = process.pid): number {
  return childrenOf(pid).reduce((sum, child) => sum + cpuSecondsOf(child) + childrenCpuSeconds(child), 0);
}

/** Seconds of CPU used so far by this process. */
export function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}
