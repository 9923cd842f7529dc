/**
 * Runs the OAuth library (@cloudflare/workers-oauth-provider) in Node for the operator CLI. The
 * library imports `cloudflare:workers` for one thing, `WorkerEntrypoint` (to recognise handler
 * classes), which client management never uses; this resolve hook answers that import with a
 * stand-in class. Everything else (KV through wrangler's platform proxy, Web Crypto) is real.
 *
 * Import `src/worker/auth/oauth/provider` only after calling this, and dynamically: static imports are
 * resolved before any code of the importing module runs.
 */
import { registerHooks } from "node:module";

const STAND_IN = `data:text/javascript,${encodeURIComponent("export class WorkerEntrypoint {}")}`;
let registered = false;

export async function loadOAuthProvider(): Promise<typeof import("../../worker/auth/oauth/provider")> {
  if (!registered) {
    // The worker runs with this flag (wrangler.toml); without it the library warns about CIMD on load.
    (globalThis as { Cloudflare?: unknown }).Cloudflare ??= {
      compatibilityFlags: { global_fetch_strictly_public: true },
    };
    registerHooks({
      resolve: (specifier, context, nextResolve) =>
        specifier === "cloudflare:workers"
          ? { url: STAND_IN, format: "module", shortCircuit: true }
          : nextResolve(specifier, context),
    });
    registered = true;
  }
  return import("../../worker/auth/oauth/provider");
}
