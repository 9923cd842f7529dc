/**
 * OAuth client ids that start with "-", as the library draws about one in 64 (its ids are
 * base64url): a command line that passes one as `--client <id>` fails to parse. The library's
 * random source is steered so that a test does not depend on a 1-in-64 chance.
 */
import { vi } from "vitest";
import { withClientRegistry } from "../../../src/node/oauth/client-registry";
import { expectDefined } from "../../../src/common/expect";

/** The index of "-" in the alphabet of the library's ids (A-Z a-z 0-9 - _). */
const DASH = 62;

/** The library's next random draw (the next client id) starts with "-"; returns the undo. */
export function nextClientIdStartsWithDash(): () => void {
  const draw = crypto.getRandomValues.bind(crypto);
  const spy = vi
    .spyOn(crypto, "getRandomValues")
    .mockImplementationOnce(<T extends ArrayBufferView<ArrayBuffer> | null>(array: T): T => {
      draw(expectDefined<ArrayBufferView<ArrayBuffer>>(array, "the array getRandomValues fills"));
      (array as unknown as Uint8Array)[0] = DASH;
      return array;
    });
  return () => spy.mockRestore();
}

/** A public client registered with the library itself, as before npm run clients avoided such ids. */
export async function registerClientStartingWithDash(
  persistTo: string,
  client: { clientName: string; redirectUris: string[] },
): Promise<string> {
  return withClientRegistry({ persistTo }, async (api) => {
    const restore = nextClientIdStartsWithDash();
    try {
      const created = await api.createClient({ ...client, tokenEndpointAuthMethod: "none" });
      if (!created.clientId.startsWith("-"))
        throw new Error(
          `the library's client id ${created.clientId} does not start with "-": is it still drawn from crypto.getRandomValues?`,
        );
      return created.clientId;
    } finally {
      restore();
    }
  });
}
