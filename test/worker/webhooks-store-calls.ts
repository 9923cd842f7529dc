/** Direct calls to the WebhookStore that the dashboard makes (the API has no route for them). */
import { env } from "cloudflare:workers";
import { webhookStore } from "../../src/worker/webhooks/store-access";
import type { DeliveryView } from "../../src/worker/webhooks/views";

export async function sendTestEvent(accountId: string, endpointId: string): Promise<DeliveryView> {
  const outcome = await webhookStore(env).sendTestEvent(accountId, endpointId);
  if (!outcome.ok) throw new Error(outcome.detail);
  return outcome.value;
}
