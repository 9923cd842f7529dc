/**
 * OAuth client registration for the operator CLIs (`npm run clients`, `npm start`'s demo app). The
 * library draws client ids from base64url, so one in 64 would start with "-", which a command line
 * takes for an option (`--client -Xy…` fails to parse): such a client is deleted unused and drawn
 * again. The library takes no client id of ours (createClient draws it; updateClient keeps it).
 */
import type { ClientInfo, OAuthHelpers } from "../../src/auth/oauth/provider";

/** (1/64)^8: a ninth "-" in a row means the ids are no longer drawn at random. */
const MAX_DRAWS = 8;

export async function registerClient(api: OAuthHelpers, info: Partial<ClientInfo>): Promise<ClientInfo> {
  for (let draw = 1; draw <= MAX_DRAWS; draw++) {
    const client = await api.createClient(info);
    if (!client.clientId.startsWith("-")) return client;
    await api.deleteClient(client.clientId);
  }
  throw new Error(`the OAuth library returned ${MAX_DRAWS} client ids in a row that start with "-"`);
}
