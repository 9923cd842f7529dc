/**
 * Every worker test file starts as a fresh deployment. The worker's test files share one isolate
 * and one workerd (vitest.config.ts, `isolate: false`), so before each file: the background work
 * the file before it left running (its requests' `waitUntil`: a publish's announcements, cache
 * fills, usage counts) is waited for, lest it write into this file's storage; every binding is
 * emptied and the D1 schema of migrations/ applied again (as `npm start` and deploy apply it); and
 * the isolate forgets what it remembered.
 */
import { waitForGlobalWaitUntil } from "cloudflare:test-internal";
import { resetStorage } from "./reset-storage";

// A failure of that work is the earlier file's (its own tests saw it or did not care), not this one's.
await waitForGlobalWaitUntil().catch(() => {});
await resetStorage();
