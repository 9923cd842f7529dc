/**
 * The consent page names, in plain words, what the app will be able to do with each scope it
 * asks for (src/worker/auth/oauth/scope-words.ts), with the scope itself beside the words.
 */
import { describe, expect, it } from "vitest";
import { SCOPES } from "../../src/common/auth/scopes";
import { SCOPE_WORDS } from "../../src/worker/auth/oauth/scope-words";
import { visibleText } from "./dashboard-support";
import {
  authorizeUrl,
  Browser,
  createCustomer,
  pkcePair,
  registerClient,
  signInAndOpenConsent,
  standardParams,
} from "./oauth-support";

describe("the consent page", () => {
  it("lists every requested scope in its words, and says what admin implies", async () => {
    const account = await createCustomer();
    const { clientId } = await registerClient();
    const { challenge } = await pkcePair();
    const url = authorizeUrl(standardParams(clientId, challenge, { scope: SCOPES.join(" ") }));
    const text = visibleText(await signInAndOpenConsent(new Browser(), url, account));
    for (const scope of SCOPES) expect(text).toContain(`${SCOPE_WORDS[scope]} ${scope}`);
    expect(SCOPE_WORDS["write:orders"]).toMatch(/^Place cheese orders .* cancel them/);
    expect(SCOPE_WORDS.admin).toContain("everything every other permission allows");
  });

  it("shows only the scopes asked for", async () => {
    const account = await createCustomer();
    const { clientId } = await registerClient();
    const { challenge } = await pkcePair();
    const url = authorizeUrl(standardParams(clientId, challenge, { scope: "read:profile" }));
    const text = visibleText(await signInAndOpenConsent(new Browser(), url, account));
    expect(text).toContain(`${SCOPE_WORDS["read:profile"]} read:profile`);
    expect(text).not.toContain(SCOPE_WORDS["write:profile"]);
    expect(text).not.toContain(SCOPE_WORDS["read:orders"]);
  });
});
