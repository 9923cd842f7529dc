/** The local worker secrets file (`.wrangler/operator.env`) that npm start and npm run operator share. */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { localOperator } from "../../src/node/operator/local-operator";

const dirs: string[] = [];
const scratchFile = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "local-secrets-"));
  dirs.push(dir);
  return path.join(dir, "operator.env");
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("localOperator()", () => {
  it("creates OPERATOR_SECRET, OAUTH_TOKEN_KEY and CURSOR_KEY (32 random bytes, base64url), mode 0600, and keeps them", () => {
    const file = scratchFile();
    const first = localOperator(file);
    const text = readFileSync(file, "utf8");
    expect(text).toMatch(
      /^OPERATOR_SECRET=[A-Za-z0-9_-]{43}\nOAUTH_TOKEN_KEY=[A-Za-z0-9_-]{43}\nCURSOR_KEY=[A-Za-z0-9_-]{43}\n$/,
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(localOperator(file)).toEqual(first);
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("adds OAUTH_TOKEN_KEY and CURSOR_KEY to a file from before they existed, keeping what is there", () => {
    const file = scratchFile();
    writeFileSync(file, "OPERATOR_SECRET=kept-operator-secret-of-an-older-checkout", { mode: 0o600 });
    expect(localOperator(file).operatorSecret).toBe("kept-operator-secret-of-an-older-checkout");
    expect(readFileSync(file, "utf8")).toMatch(
      /^OPERATOR_SECRET=kept-operator-secret-of-an-older-checkout\nOAUTH_TOKEN_KEY=[A-Za-z0-9_-]{43}\nCURSOR_KEY=[A-Za-z0-9_-]{43}\n$/,
    );
  });
});
