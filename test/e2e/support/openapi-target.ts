/**
 * The server the OpenAPI tests examine: the real `wrangler dev` over a fresh state with the sample
 * catalog published (so catalog routes answer 200, 206 and 304, not only 503) and an API key.
 */
import { provisionedApiKey } from "./api-key";
import { catalogState, type CatalogState } from "./catalog-state";
import { startWranglerDev, type DevServer } from "./wrangler-dev";

export interface OpenApiTarget {
  server: DevServer;
  apiKey: string;
  document: { paths: Record<string, Record<string, unknown>>; components?: object };
  stop(): Promise<void>;
}

export async function startOpenApiTarget(): Promise<OpenApiTarget> {
  const state: CatalogState = catalogState();
  await state.publishSamples();
  const server = await startWranglerDev({ persistTo: state.persistTo });
  const stop = async () => {
    await server.stop();
    state.remove();
  };
  try {
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as OpenApiTarget["document"];
    return { server, apiKey: provisionedApiKey(server.url), document, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
