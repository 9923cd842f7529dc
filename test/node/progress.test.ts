/**
 * The progress every long command reports (src/node/cli/progress.ts): on a terminal a bar with human
 * units, rate and ETA; elsewhere plain lines, when a step starts, every interval and when it ends.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { formatBytes, formatSeconds, startProgress, stepProgress } from "../../src/node/cli/progress";

function fakeStream(tty: boolean) {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  if (tty) Object.assign(stream, { isTTY: true, columns: 160 });
  let text = "";
  stream.on("data", (chunk) => (text += chunk));
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("human units", () => {
  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1047291, "1022.7 KiB"],
    [103163384, "98.4 MiB"],
    [5 * 1024 ** 3, "5.0 GiB"],
  ])("%d bytes → %s", (bytes, text) => expect(formatBytes(bytes)).toBe(text));

  it.each([
    [4.25, "4.3 s"],
    [42, "42 s"],
    [125, "2 min 5 s"],
    [7300, "2 h 1 min"],
  ])("%d s → %s", (seconds, text) => expect(formatSeconds(seconds)).toBe(text));
});

describe("off a terminal", () => {
  it("prints a plain line when the step starts, every interval, and when it ends, with rate and ETA", async () => {
    const out = fakeStream(false);
    const progress = startProgress("validate", "bytes", 103163384, { stream: out.stream, intervalMs: 100 });
    progress.update(1047291, "204 profiles");
    await sleep(250);
    progress.update(51581692, "10,000 profiles");
    await sleep(150);
    progress.update(103163384, "20,000 profiles");
    progress.stop();
    await sleep(10);
    const lines = out.text().trimEnd().split("\n");
    expect(lines[0]).toBe("validate: 0 B/98.4 MiB (0%)");
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(
      lines
        .slice(1, -1)
        .some((line) => /^validate: 1022\.7 KiB\/98\.4 MiB \(1%\), [\d.]+ (KiB|MiB)\/s, ETA [\d.]+ (s|min)/.test(line)),
    ).toBe(true);
    expect(lines.at(-1)).toMatch(
      /^validate: 98\.4 MiB\/98\.4 MiB \(100%\), [\d.]+ MiB\/s, in 0\.\d s, 20,000 profiles$/,
    );
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ESC, the start of a terminal code.
    expect(out.text()).not.toMatch(/\u001b\[/); // no terminal control sequences in a log
  });

  it("the last line of a failed step says how far it got", async () => {
    const out = fakeStream(false);
    const progress = startProgress("upload parts", "parts", 12, { stream: out.stream });
    progress.update(5);
    progress.stop();
    await sleep(10);
    expect(out.text().trimEnd().split("\n")).toEqual([
      "upload parts: 0/12 parts (0%)",
      expect.stringMatching(/^upload parts: 5\/12 parts \(41%\)/),
    ]);
  });
});

describe("a command in steps", () => {
  it("shows each step once, completes the previous step when the next starts, and trims padded labels", async () => {
    const out = fakeStream(false);
    const steps = stepProgress(out.stream);
    steps.show("write", { label: "write   ", unit: "profiles" }, 10, 40, "first");
    steps.show("write", { label: "write   ", unit: "profiles" }, 30, 40);
    steps.show("hash", { label: "hash    ", unit: "parts" }, 1, 3);
    steps.stop();
    await sleep(10);
    expect(out.text().trimEnd().split("\n")).toEqual([
      "write: 0/40 profiles (0%)",
      expect.stringMatching(/^write: 40\/40 profiles \(100%\)/),
      "hash: 0/3 parts (0%)",
      expect.stringMatching(/^hash: 1\/3 parts \(33%\)/),
    ]);
  });
});

describe("on a terminal", () => {
  it("draws a bar with human units, rate, ETA and the note", async () => {
    const out = fakeStream(true);
    const progress = startProgress("validate", "bytes", 103163384, { stream: out.stream });
    await sleep(120);
    progress.update(41265354, "8,000 profiles");
    await sleep(250);
    progress.stop();
    await sleep(10);
    expect(out.text()).toMatch(
      /validate \|█{10}░{14}\| 40% \| 39\.4 MiB\/98\.4 MiB \| [\d.]+ MiB\/s \| ETA [\d.]+ s \| 8,000 profiles/,
    );
    expect(out.text()).not.toContain("41265354");
  });
});
