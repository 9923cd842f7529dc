/**
 * The real `wrangler dev` (src/node/local/wrangler-dev.ts, the one `npm start` uses) on a port the OS picks, over a
 * test's own persisted state.
 */
import path from "node:path";
import { startWranglerDev as start, type DevServer } from "../../../src/node/local/wrangler-dev";
import { operatorSecretFile, provisionApiKey } from "./api-key";

export type { DevServer };
export const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");

/** Starts the server and provisions an API key for it (see api-key.ts). */
export async function startWranglerDev(options: { persistTo: string; environment?: string }): Promise<DevServer> {
  const { envFile, operatorSecret } = operatorSecretFile(options.persistTo);
  const server = await start({ ...options, envFile });
  try {
    await provisionApiKey(server.url, operatorSecret);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}
