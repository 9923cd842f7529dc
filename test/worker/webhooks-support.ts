/** Helpers of the webhook tests: an account with a key, its endpoints, the store. */
import { env } from "cloudflare:workers";
import { accountWithKey, bearer, call } from "./auth-fixtures";
import { eventually } from "./support/webhook-receiver";
import { webhookStore } from "../../src/worker/webhooks/store-access";
import type { DeliveryView, WebhookEndpointView } from "../../src/worker/webhooks/views";

export type CreatedEndpoint = WebhookEndpointView & { secret: string };

export const postJson = (secret: string, body: unknown): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json", ...bearer(secret) },
  body: JSON.stringify(body),
});

export async function webhookCaller() {
  const { secret, accountId } = await accountWithKey();
  const as = (path: string, init: RequestInit = {}, bindings: Env = env) =>
    call(path, { ...init, headers: { ...(init.headers as Record<string, string>), ...bearer(secret) } }, bindings);
  async function deliveries(id: string): Promise<DeliveryView[]> {
    const response = await as(`/v1/webhook_endpoints/${id}/deliveries`);
    if (response.status !== 200) throw new Error(`deliveries: ${response.status} ${await response.text()}`);
    return (await response.json<{ data: DeliveryView[] }>()).data;
  }
  return {
    secret,
    accountId,
    as,
    async register(url: string, events?: string[]): Promise<CreatedEndpoint> {
      const response = await call("/v1/webhook_endpoints", postJson(secret, { url, ...(events ? { events } : {}) }));
      if (response.status !== 201) throw new Error(`register: ${response.status} ${await response.text()}`);
      return response.json();
    },
    deliveries,
    /** The endpoint's newest delivery, once the queue consumer has made an attempt at it. */
    async attempted(id: string): Promise<DeliveryView> {
      const [delivery] = await eventually(async () => {
        const list = await deliveries(id);
        return list[0]?.attempts.length ? list : undefined;
      });
      if (!delivery) throw new Error(`no delivery of ${id}`);
      return delivery;
    },
  };
}

/** What the alarm does every 10 s, at once: announce a moved `current` pointer. */
export const announcePointer = () => webhookStore(env).checkPointer();
