/**
 * `watch.triggered`: a watch event sent to each of the owner's endpoints that subscribe to it,
 * signed as every delivery (verified with `standardwebhooks`), through the real queue consumer to
 * the tests' receiver; no other account's endpoint, nor an endpoint without the subscription, gets it.
 */
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { webhookStore } from "../../src/worker/webhooks/store-access";
import { WatchTriggeredBody } from "../../src/worker/webhooks/events";
import { bearer, call } from "./auth-fixtures";
import { publish, testRelease, workerStorage } from "./support/releases";
import { resetStorage } from "./support/reset-storage";
import { eventually, received, receiverUrl } from "./support/webhook-receiver";
import { announcePointer, postJson, webhookCaller } from "./webhooks-support";

describe("watch.triggered", () => {
  it("reaches the watch owner's subscribed endpoints, signed, with the event as data", {
    timeout: 120_000,
  }, async () => {
    await resetStorage();
    await publish(testRelease("generated"), workerStorage(), { now: () => new Date("2026-01-01T00:00:00Z") });
    const owner = await webhookCaller();
    const subscribed = await owner.register(receiverUrl("watch-owner"), ["watch.triggered"]);
    const releasesOnly = await owner.register(receiverUrl("watch-releases-only"));
    expect(releasesOnly.events).toEqual(["release.published", "release.rolled_back"]);
    const stranger = await webhookCaller();
    await stranger.register(receiverUrl("watch-stranger"), ["watch.triggered"]);
    const created = await call("/v1/watches", postJson(owner.secret, { name: "A grades", query: "grade=A" }));
    const watch = await created.json<{ id: string }>();
    expect(await webhookStore(env).checkWatchEvents()).toEqual([]);

    await publish(testRelease("generatedNext"), workerStorage(), { now: () => new Date(Date.now() + 60_000) });
    const deliveries = await webhookStore(env).checkWatchEvents();
    expect(deliveries.map((delivery) => delivery.event)).toEqual(["watch.triggered"]);
    expect(await webhookStore(env).checkWatchEvents()).toEqual([]);
    // The publish's own announcement, now rather than at the alarm 10 s on.
    const announced = await announcePointer();
    expect(announced.map((delivery) => delivery.event)).toEqual(["release.published"]);

    const [hook] = await eventually(async () => {
      const all = await received("watch-owner");
      return all.length > 0 ? all : undefined;
    });
    const body = WatchTriggeredBody.parse(new Webhook(subscribed.secret).verify(hook?.body ?? "", hook?.headers ?? {}));
    const events = await (await call(`/v1/watches/${watch.id}/events`, { headers: bearer(owner.secret) })).json<{
      data: unknown[];
    }>();
    expect(body).toEqual({ type: "watch.triggered", timestamp: expect.any(String), data: events.data[0] });
    expect(await received("watch-stranger")).toEqual([]);
    // The endpoint without the subscription gets the second publish's release.published, and only that.
    const releasesOnlyHooks = await eventually(async () => {
      const all = await received("watch-releases-only");
      return all.length > 0 ? all : undefined;
    });
    expect(releasesOnlyHooks.map((hook) => JSON.parse(hook.body).type)).toEqual(["release.published"]);
  });
});
