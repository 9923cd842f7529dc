/** docs/oauth.md's scope table says exactly what the consent page says for each scope. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SCOPES } from "../../src/common/auth/scopes";
import { SCOPE_WORDS } from "../../src/worker/auth/oauth/scope-words";

const OAUTH_DOC = readFileSync(path.resolve(import.meta.dirname, "../../docs/oauth.md"), "utf8");

describe("docs/oauth.md scopes", () => {
  it.each(SCOPES)("gives %s the consent page's words", (scope) => {
    expect(OAUTH_DOC).toContain(`| \`${scope}\` | ${SCOPE_WORDS[scope]} |`);
  });
});
