/**
 * A deployment's OAuth client registry in Node: the library's API (loaded by library-in-node.ts)
 * over the deployment's OAUTH_KV, through wrangler's platform proxy, closed again once `use` is
 * done. `npm run clients` manages clients through it; the tests register theirs the same way.
 */
import type { DeploymentOptions } from "../local/deployment-storage";
import { loadOAuthProvider } from "./library-in-node";

type Provider = Awaited<ReturnType<typeof loadOAuthProvider>>;
type RegistryApi = ReturnType<Provider["registryApi"]>;

export async function withClientRegistry<T>(
  deployment: DeploymentOptions,
  use: (api: RegistryApi, opened: { where: string; provider: Provider }) => Promise<T>,
): Promise<T> {
  // Loaded only now: wrangler and the library are large imports.
  const { openDeploymentStorage } = await import("../local/deployment-storage");
  const provider = await loadOAuthProvider();
  const opened = await openDeploymentStorage(deployment);
  try {
    if (!opened.env.OAUTH_KV) throw new Error("wrangler.toml declares no OAUTH_KV namespace for this deployment");
    const api = provider.registryApi(opened.env as unknown as Parameters<Provider["registryApi"]>[0]);
    return await use(api, { where: opened.where, provider });
  } finally {
    await opened.dispose();
  }
}
