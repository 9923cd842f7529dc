/**
 * The retry schedule and when an endpoint is disabled, driven through a WebhookStore of its own
 * (a separate Durable Object: the real queue consumer asks the deployment's store, which does not
 * know these deliveries, so nothing else attempts them).
 */
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { publish, testRelease } from "./support/releases";
import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS, RETRY_SPAN_SECONDS } from "../../src/worker/webhooks/schedule";
import type { WebhookStore } from "../../src/worker/webhooks/webhook-store";

const failed = { response_status: 503, error: null, response_excerpt: "down" };

describe("retry schedule", () => {
  it("is the Standard Webhooks recommendation and spans more than 24 h", () => {
    expect(RETRY_DELAYS_SECONDS).toEqual([5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600]);
    expect(MAX_ATTEMPTS).toBe(8);
    expect(RETRY_SPAN_SECONDS).toBeGreaterThan(24 * 3600);
  });

  it("retries on that schedule, then marks the delivery failed and disables the endpoint", async () => {
    const store = env.WEBHOOKS.getByName(`retries-${crypto.randomUUID()}`);
    await runInDurableObject(store, async (instance: WebhookStore) => {
      const created = await instance.createEndpoint("acct_retries", {
        url: "https://example.com/down",
        events: ["release.published"],
      });
      if (!created.ok) throw new Error(created.detail);
      const endpointId = created.value.endpoint.id;
      const sent = await instance.sendTestEvent("acct_retries", endpointId);
      if (!sent.ok) throw new Error(sent.detail);

      const delays: (number | null)[] = [];
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const plan = await instance.planAttempt(sent.value.id);
        expect(plan?.attempt).toBe(attempt);
        delays.push(await instance.recordAttempt(sent.value.id, attempt, failed));
      }
      expect(delays).toEqual([...RETRY_DELAYS_SECONDS, null]);
      expect(await instance.planAttempt(sent.value.id)).toBeNull();

      const deliveries = await instance.listDeliveries("acct_retries", endpointId, 10);
      if (!deliveries.ok) throw new Error(deliveries.detail);
      expect(deliveries.value.data[0]).toMatchObject({ status: "failed", next_attempt_at: null });
      expect(deliveries.value.data[0]?.attempts).toHaveLength(MAX_ATTEMPTS);

      const endpoint = await instance.getEndpoint("acct_retries", endpointId);
      expect(endpoint).toMatchObject({ ok: true, value: { status: "disabled", disabled_at: expect.any(String) } });
      expect(await instance.sendTestEvent("acct_retries", endpointId)).toMatchObject({
        ok: false,
        code: "webhook_endpoint_disabled",
      });
    });
  });

  it("does not disable an endpoint whose failing delivery finally succeeds", async () => {
    const store = env.WEBHOOKS.getByName(`recovers-${crypto.randomUUID()}`);
    await runInDurableObject(store, async (instance: WebhookStore) => {
      const created = await instance.createEndpoint("acct_recovers", { url: "https://example.com/", events: [] });
      if (!created.ok) throw new Error(created.detail);
      const sent = await instance.sendTestEvent("acct_recovers", created.value.endpoint.id);
      if (!sent.ok) throw new Error(sent.detail);
      for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++)
        await instance.recordAttempt(sent.value.id, attempt, failed);
      const last = { response_status: 204, error: null, response_excerpt: null };
      expect(await instance.recordAttempt(sent.value.id, MAX_ATTEMPTS, last)).toBeNull();
      expect(await instance.getEndpoint("acct_recovers", created.value.endpoint.id)).toMatchObject({
        value: { status: "enabled" },
      });
    });
  });
});

describe("the pointer watch", () => {
  it("does not announce what was published while no endpoint listened", async () => {
    const store = env.WEBHOOKS.getByName(`watch-${crypto.randomUUID()}`);
    await publish(testRelease("smallest"));
    const first = await runInDurableObject(store, (instance: WebhookStore) =>
      instance.createEndpoint("acct_watch", { url: "https://example.com/a", events: ["release.published"] }),
    );
    if (!first.ok) throw new Error(first.detail);
    await runInDurableObject(store, (instance: WebhookStore) =>
      instance.deleteEndpoint("acct_watch", first.value.endpoint.id),
    );
    expect(await runDurableObjectAlarm(store)).toBe(true); // the last alarm: no endpoint left, the watch stops

    await publish(testRelease("smaller"));
    const announced = await runInDurableObject(store, async (instance: WebhookStore) => {
      await instance.createEndpoint("acct_watch", { url: "https://example.com/b", events: ["release.published"] });
      return instance.checkPointer();
    });
    expect(announced).toEqual([]);
  });
});
