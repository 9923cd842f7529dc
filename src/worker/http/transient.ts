/**
 * The answer to a storage failure that outlived its retries (src/common/transient.ts): 503
 * `storage_unavailable` with `Retry-After`, never a 500, since the request was fine and the same
 * request a moment later is expected to succeed. The app's error handler asks here first.
 */
import { isTransientStorageError } from "../../common/transient";
import { Problem } from "./problem";

/** Seconds a client should wait: the busy spells measured (a publish's load batch) last well under one. */
const STORAGE_RETRY_AFTER_SECONDS = 1;

/** The 503 for `error` when it is a transient storage failure; null for any other error. */
export function storageUnavailable(error: unknown): Problem | null {
  if (!isTransientStorageError(error)) return null;
  return new Problem(
    "storage_unavailable",
    "Storage was briefly unavailable (busy or reconnecting) and still failed after retries; nothing was changed. Retry shortly.",
    { headers: { "Retry-After": String(STORAGE_RETRY_AFTER_SECONDS) } },
  );
}
