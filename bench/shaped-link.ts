/**
 * A local link of a given bandwidth, for the bench only: a TCP proxy in front of a server that
 * paces the bytes of every connection through one shared budget per direction, as a consumer's
 * access link would (sync bench: a full pull and a sync through 100 Mbit/s, not loopback). It adds
 * no latency of its own beyond the pacing; the HTTP stays the client's and the server's.
 */
import { createServer, connect, type Server, type Socket } from "node:net";
import { Transform, type TransformCallback } from "node:stream";

/** Bytes sent at once: the pacing's grain (1 ms of a 100 Mbit/s link is 12.5 KB). */
const SLICE_BYTES = 16 * 1024;

/** One direction of the link: each slice leaves once the slices before it had their time on the wire. */
class Pacer {
  private freeAt = 0;
  constructor(private readonly bytesPerMs: number) {}

  /** Milliseconds to wait before sending `bytes`, and books the wire for them. */
  book(bytes: number): number {
    const now = performance.now();
    const start = Math.max(now, this.freeAt);
    this.freeAt = start + bytes / this.bytesPerMs;
    return this.freeAt - now;
  }
}

function paced(pacer: Pacer): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      const slices: Buffer[] = [];
      for (let at = 0; at < chunk.length; at += SLICE_BYTES) slices.push(chunk.subarray(at, at + SLICE_BYTES));
      const next = () => {
        const slice = slices.shift();
        if (!slice) return done();
        setTimeout(() => {
          this.push(slice);
          next();
        }, pacer.book(slice.length));
      };
      next();
    },
  });
}

export interface ShapedLink {
  /** `http://127.0.0.1:<port>`: the server behind the link. */
  url: string;
  close(): Promise<void>;
}

/** Opens a link of `megabitsPerSecond` (each direction) to the server at `target` (an http URL). */
export async function openShapedLink(target: string, megabitsPerSecond: number): Promise<ShapedLink> {
  const { hostname, port } = new URL(target);
  const bytesPerMs = (megabitsPerSecond * 1e6) / 8 / 1000;
  const [up, down] = [new Pacer(bytesPerMs), new Pacer(bytesPerMs)];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(paced(up)).pipe(upstream);
    upstream.pipe(paced(down)).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("shaped link: no TCP address");
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
