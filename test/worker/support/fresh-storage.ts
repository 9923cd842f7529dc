/**
 * Setup file of the worker projects, run before each test file. The projects run with
 * `isolate: false` (vitest.config.ts): one workerd serves many test files in turn, so each file
 * starts here with its own copy of the worker's modules (no module-level cache, such as the key
 * record cache or the index directories, carries over), from empty storage with the D1 schema of
 * migrations/ as `npm start` and deploy apply it, and leaves no spy or fake clock to the next file.
 */
import { afterAll, vi } from "vitest";
import { resetStorage } from "./reset-storage";

vi.resetModules();
await resetStorage();

afterAll(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});
