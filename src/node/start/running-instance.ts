/**
 * A running `npm start`, as the other CLIs find it. `npm start` writes `.wrangler/npm-start.json`
 * (its pid, the absolute state directory it serves and its ports) once its servers answer, and
 * removes it when it stops. `catalog:publish`, `catalog:rollback`, `clients` and `operator`, given no
 * `--persist-to` (nor `--remote`/`--url`), then act on that state and those servers rather than on
 * `.wrangler/state`; given a `--persist-to` elsewhere they act there and say which state `npm start`
 * serves instead. A file whose process is gone (a killed `npm start`) is ignored.
 * `NPM_START_FILE` names another file (tests run their own instances).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface RunningInstance {
  pid: number;
  /** Absolute: the directory given to wrangler dev --persist-to. */
  persistTo: string;
  ports: { production?: number; sandbox?: number };
}

const instanceFile = () => process.env.NPM_START_FILE ?? path.resolve(".wrangler", "npm-start.json");

/** Records this process as the running `npm start`; the returned function removes the record. */
export function recordRunningInstance(instance: Omit<RunningInstance, "pid">): () => void {
  const file = instanceFile();
  const record: RunningInstance = { ...instance, pid: process.pid, persistTo: path.resolve(instance.persistTo) };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  const remove = () => {
    if (runningInstance()?.pid === process.pid) rmSync(file, { force: true });
  };
  process.once("exit", remove);
  return remove;
}

/** The `npm start` running now, or null (no record, or its process is gone). */
export function runningInstance(): RunningInstance | null {
  let record: RunningInstance;
  try {
    record = JSON.parse(readFileSync(instanceFile(), "utf8")) as RunningInstance;
  } catch {
    return null;
  }
  if (!Number.isInteger(record.pid) || typeof record.persistTo !== "string") return null;
  try {
    process.kill(record.pid, 0); // signal 0: is it alive? (throws ESRCH when not)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return null;
  }
  return record;
}

/**
 * The local state a CLI acts on: `--persist-to` when given, else the running `npm start`'s, else
 * the default. What it chose, when an `npm start` runs, is said on stderr: never another state silently.
 */
export function localStateDir(explicit: string | undefined, fallback: string, log: (line: string) => void): string {
  const running = runningInstance();
  if (!running) return explicit ?? fallback;
  if (explicit === undefined) {
    log(`npm start (pid ${running.pid}) is running over ${running.persistTo}: acting on that state`);
    return running.persistTo;
  }
  if (path.resolve(explicit) !== running.persistTo)
    log(
      `note: acting on ${path.resolve(explicit)} (--persist-to), not on ${running.persistTo}, the state npm start (pid ${running.pid}) serves`,
    );
  return explicit;
}
