/**
 * `npm run webhooks:receive`'s command line: the signing secret comes from $WEBHOOK_SECRET or
 * `--secret-file` (never the command line: `--secret=` still works, with a warning, for one release),
 * and a secret the verifier cannot use is a usage error before anything listens.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { receiverOptions, webhookReceiver } from "../../src/node/webhooks/receive-command";
import { capturedIo, expectUsageError, runInProcess } from "./cli-in-process";

const SECRET = `whsec_${Buffer.from("a secret of the test, 32 bytes..").toString("base64")}`;
const NO_SECRET = { WEBHOOK_SECRET: "" };

function secretFile(text: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "receiver-")), "whsec.txt");
  writeFileSync(file, text);
  return file;
}

describe("webhooks:receive's signing secret", () => {
  it("comes from $WEBHOOK_SECRET", () => {
    const { io, run } = capturedIo({ env: { WEBHOOK_SECRET: SECRET } });
    expect(receiverOptions([], io)).toEqual({ port: 8790, fail: 0, secret: SECRET });
    expect(run.stderr).toBe("");
  });

  it("or from --secret-file (its final newline dropped), - being standard input; the file wins over the variable", () => {
    const { io } = capturedIo({ env: { WEBHOOK_SECRET: "whsec_AAAA" }, stdin: `${SECRET}\n` });
    expect(receiverOptions(["--secret-file", secretFile(`${SECRET}\n`)], io).secret).toBe(SECRET);
    expect(receiverOptions(["--secret-file=-"], io).secret).toBe(SECRET);
  });

  it("is optional: without it nothing is verified", () => {
    expect(receiverOptions(["--port=9000"], capturedIo({ env: NO_SECRET }).io)).toEqual({ port: 9000, fail: 0 });
  });

  it("still takes --secret=, deprecated, with a warning that says why", () => {
    const { io, run } = capturedIo({ env: NO_SECRET });
    expect(receiverOptions([`--secret=${SECRET}`], io).secret).toBe(SECRET);
    expect(run.stderr).toMatch(
      /--secret on the command line is deprecated .*ps shows it.*\$WEBHOOK_SECRET or use --secret-file/,
    );
  });

  it.each([
    [["--port", "70000"], {}, "--port 70000 is not a port"],
    [["--fail=-1"], {}, "--fail -1 is not a count"],
    [["--colour"], {}, "Unknown option '--colour'"],
    [[], { WEBHOOK_SECRET: "whsec_!!!" }, "the signing secret is not a whsec_… secret"],
    [["--secret-file", "/nonexistent/whsec.txt"], {}, "--secret-file /nonexistent/whsec.txt: ENOENT"],
    [["--secret-file", secretFile("\n")], {}, "is empty"],
    [["--secret-file=-", `--secret=${SECRET}`], {}, "--secret-file and --secret exclude each other"],
  ])("refuses %j (env %j) as a usage error: %s", async (argv, env, problem) => {
    const run = await runInProcess(webhookReceiver.run, argv, { env: { ...NO_SECRET, ...env } });
    expectUsageError(run, "webhooks:receive", problem);
  });
});
