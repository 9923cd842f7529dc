/**
 * What a long command does when interrupted (src/node/cli/interrupt.ts), with the effects on the
 * process (stderr, exit) handed in. The commands' own Ctrl-C, through their doors as real process
 * groups, is in build-cli.test.ts and publish-cli.test.ts.
 */
import { describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { onInterrupt } from "../../src/node/cli/interrupt";

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

describe("onInterrupt()", () => {
  it("on SIGINT or SIGTERM: runs `before`, says what was left, exits 128 + the signal; stops listening when told", () => {
    const earlier = Object.fromEntries(SIGNALS.map((signal) => [signal, process.listeners(signal)]));
    const events: string[] = [];
    const stop = onInterrupt(
      "catalog:test",
      () => "3 of 5 parts were sent",
      () => events.push("before"),
      { write: (text) => events.push(`write ${text}`), exit: (code) => events.push(`exit ${code}`) },
    );
    // Called directly, not emitted: the test runner listens to these signals too.
    const added = (signal: (typeof SIGNALS)[number]) =>
      process.listeners(signal).filter((listener) => !earlier[signal]?.includes(listener));
    for (const signal of SIGNALS) expect(added(signal)).toHaveLength(1);

    expectDefined(added("SIGINT")[0], "the SIGINT listener")("SIGINT");
    expectDefined(added("SIGTERM")[0], "the SIGTERM listener")("SIGTERM");
    expect(events).toEqual([
      "before",
      "write \ncatalog:test: interrupted (Ctrl-C): 3 of 5 parts were sent\n",
      "exit 130",
      "before",
      "write \ncatalog:test: interrupted (SIGTERM): 3 of 5 parts were sent\n",
      "exit 143",
    ]);

    stop();
    for (const signal of SIGNALS) expect(process.listeners(signal)).toEqual(earlier[signal]);
  });
});
