/**
 * The one internal of @cloudflare/vitest-plugin the tests use (its worker's `cloudflare:test-internal`
 * module, which `cloudflare:test` re-exports in part): the `waitUntil` promises of every request
 * and test so far, waited for until none is left (test/worker/support/apply-migrations.ts).
 */
declare module "cloudflare:test-internal" {
  export function waitForGlobalWaitUntil(): Promise<void>;
}
