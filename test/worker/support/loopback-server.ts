/**
 * The worker project's helper servers (global setups, in Node) listen here: a free port on
 * 127.0.0.1, which workerd may fetch because the tests set WEBHOOK_LOCAL_TARGETS=loopback.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Starts `server` on 127.0.0.1: its origin, and the global setup's teardown (which ends open requests too). */
export async function listenOnLoopback(server: Server): Promise<{ origin: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}
