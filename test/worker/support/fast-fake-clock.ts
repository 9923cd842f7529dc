/**
 * Vitest's fake clock in the worker project, with a cheaper pause between two timers, made before
 * each test file (a setup file) so that no file can make it slow first.
 *
 * `vi.advanceTimersByTimeAsync` fires one timer, then waits for one real macrotask (the
 * `setImmediate` it found when vitest made its clock) so that the promises the timer started
 * settle before the next one fires. In workerd that real turn of the event loop costs 1–4 ms, so a
 * file firing ~15,000 fake timers (limits.lease-book.test.ts) spent 31 s waiting. Here vitest makes
 * its clock while `setImmediate` is a run of MICROTASK_TURNS microtask turns instead, then the real
 * `setImmediate` is put back: a timer's promise chains still settle before the next timer, at
 * ~0.2 ms a timer. So code run on fake time in this project must do no real I/O (its chains are
 * a few dozen turns deep at most).
 *
 * Vitest makes its clock once per runner, on the first `vi` timer call of any file, and the files
 * share their runner (`isolate: false`): when the clock was made in the test file that needed it,
 * a file faking only `Date` (oauth.security.test.ts) that ran first in the same runner made it slow,
 * and lease-book took 31.6 s instead of 1.1 s. Made here, before every file, the first one wins.
 */
import { vi } from "vitest";

const MICROTASK_TURNS = 1_000;

const settleMicrotasks = (callback: () => void) => {
  void (async () => {
    for (let turn = 0; turn < MICROTASK_TURNS; turn++) await null;
    callback();
  })();
};

const global = globalThis as { setImmediate: unknown };
const realSetImmediate = global.setImmediate;
global.setImmediate = settleMicrotasks;
try {
  vi.useFakeTimers();
  vi.useRealTimers();
} finally {
  global.setImmediate = realSetImmediate;
}
