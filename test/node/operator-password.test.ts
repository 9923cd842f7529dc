/**
 * Where `npm run operator -- accounts create` takes the new account's password: --password-file
 * <path|-> or $ACCOUNT_PASSWORD, never the command line (npm echoes it, ps shows it). `--password -`
 * (standard input) stays; `--password <p>` still works for one release, with a warning. Usage
 * problems are refused before any server is asked (none answers at 127.0.0.1:9).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { accountPassword } from "../../src/node/operator/account-password";
import { operator } from "../../src/node/operator/operator-command";
import { capturedIo, expectUsageError, runInProcess } from "./cli-in-process";

const PASSWORD = "a long password from somewhere safe";
const NONE = { ACCOUNT_PASSWORD: "" };
const CREATE = ["accounts", "create", "--email", "ana@example.test", "--url", "http://127.0.0.1:9"];

function passwordFile(text: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "operator-password-")), "password.txt");
  writeFileSync(file, text);
  return file;
}

describe("the new account's password", () => {
  it.each([
    ["--password-file <path>", { "password-file": passwordFile(`${PASSWORD}\n`) }, {}],
    ["--password-file -", { "password-file": "-" }, {}],
    ["--password - (standard input, as before)", { password: "-" }, {}],
    ["$ACCOUNT_PASSWORD", {}, { ACCOUNT_PASSWORD: PASSWORD }],
  ])("comes from %s, without a warning", (_, values, env) => {
    const { io, run } = capturedIo({ env: { ...NONE, ...env }, stdin: `${PASSWORD}\n` });
    expect(accountPassword(values, io)).toBe(PASSWORD);
    expect(run.stderr).toBe("");
  });

  it("still comes from --password <p>, with a warning that says why it goes", async () => {
    const run = await runInProcess(operator.run, [...CREATE, "--password", PASSWORD], { env: NONE });
    expect(run.stderr).toMatch(/^operator: --password on the command line is deprecated .*ps shows it/);
    expect(run.stderr).toContain("set $ACCOUNT_PASSWORD or use --password-file <path>");
  });

  it.each([
    [[], "the password is required: --password-file <path|-> or $ACCOUNT_PASSWORD"],
    [["--password-file", "/nonexistent/password.txt"], "--password-file /nonexistent/password.txt: ENOENT"],
    [["--password-file", passwordFile("\n")], "is empty"],
    [["--password-file", "-", "--password", "-"], "--password-file and --password exclude each other"],
    [["--password-file", "-", "--password", PASSWORD], "--password-file and --password exclude each other"],
  ])("operator accounts create %j is a usage error, before any server is asked", async (args, problem) => {
    const run = await runInProcess(operator.run, [...CREATE, ...args], { env: NONE, stdin: `${PASSWORD}\n` });
    expectUsageError(run, "operator", problem);
  });
});
