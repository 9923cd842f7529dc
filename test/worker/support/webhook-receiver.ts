/** The tests' side of the webhook receiver (webhook-receiver.global-setup.ts): its URL and its log. */
import { inject } from "vitest";

export interface ReceivedWebhook {
  path: string;
  received_at: number;
  headers: { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string };
  body: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    webhookReceiver: string;
  }
}

export const receiverUrl = (name: string, query = "") => `${inject("webhookReceiver")}/hook/${name}${query}`;

export async function received(name: string): Promise<ReceivedWebhook[]> {
  return (await fetch(`${inject("webhookReceiver")}/log/${name}`)).json();
}

/** Polls until `check` returns a value (the real queue consumer works in the background). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`nothing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
