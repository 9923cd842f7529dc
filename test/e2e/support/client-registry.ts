/**
 * The OAuth client registry of a local state, as `npm run clients` opens it
 * (src/node/oauth/clients-command.ts): the library's API over the state's OAUTH_KV, through
 * wrangler's platform proxy, closed again once `use` is done.
 */
import { openDeploymentStorage } from "../../../src/node/local/deployment-storage";
import { loadOAuthProvider } from "../../../src/node/oauth/library-in-node";

type Provider = Awaited<ReturnType<typeof loadOAuthProvider>>;
type RegistryApi = ReturnType<Provider["registryApi"]>;

export async function withClientRegistry<T>(
  persistTo: string,
  use: (api: RegistryApi, provider: Provider) => Promise<T>,
): Promise<T> {
  const provider = await loadOAuthProvider();
  const opened = await openDeploymentStorage({ persistTo });
  try {
    return await use(provider.registryApi(opened.env as unknown as Parameters<Provider["registryApi"]>[0]), provider);
  } finally {
    await opened.dispose();
  }
}
