/**
 * An aborted request's body, read by the client after the abort, rejects with the abort's reason
 * and never hangs. Node's fetch (undici) leaves such a read pending for ever once the reader holds
 * the stream: it stops pulling on abort and cannot cancel a locked stream. `sync` hit it when a
 * caller aborted at its last step: every changed profile read, then finish() read the body's end.
 * Against a real HTTP server on a free port, with Node's own fetch.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ByteReader } from "../../packages/client/src/release-changes.js";

/** Large enough that undici has not yet handed the stream its end when the last byte is read. */
const BODY = Buffer.alloc(8 * 1024 * 1024, 0x61);
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((_, res) => {
    res.writeHead(200, { "Content-Type": "application/octet-stream", "Content-Length": String(BODY.length) });
    res.end(BODY);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The outcome of `work`, or "pending" if it has not settled within a second. */
function settledWithin(work: Promise<unknown>): Promise<unknown> {
  const pending = new Promise((resolve) => setTimeout(() => resolve("pending"), 1_000).unref());
  return Promise.race([
    work.then(
      () => "resolved",
      (error: unknown) => error,
    ),
    pending,
  ]);
}

describe("ByteReader after an abort", () => {
  it("finish() after the last byte was read rejects with the abort's reason", async () => {
    const controller = new AbortController();
    const reader = new ByteReader(await fetch(url, { signal: controller.signal }), url, controller.signal);
    expect((await reader.read(BODY.length)).length).toBe(BODY.length);
    controller.abort();
    const outcome = await settledWithin(reader.finish());
    expect(outcome).toBeInstanceOf(DOMException);
    expect((outcome as DOMException).name).toBe("AbortError");
  });

  it("a read in the middle of the body rejects with the abort's reason", async () => {
    const controller = new AbortController();
    const reader = new ByteReader(await fetch(url, { signal: controller.signal }), url, controller.signal);
    await reader.read(1);
    controller.abort();
    const outcome = await settledWithin(reader.read(BODY.length - 1));
    expect((outcome as DOMException).name).toBe("AbortError");
  });

  it("a read in flight when the abort comes rejects with its reason", async () => {
    const controller = new AbortController();
    const reader = new ByteReader(await fetch(url, { signal: controller.signal }), url, controller.signal);
    const reason = new Error("stop now");
    const reading = settledWithin(reader.read(BODY.length + 1));
    controller.abort(reason);
    expect(await reading).toBe(reason);
  });
});
