/**
 * The WEBHOOK_QUEUE consumer: one message per delivery (`{delivery_id}`), and one attempt per
 * message. It checks the endpoint's URL again (target-url.ts), then POSTs the stored body, signed
 * per Standard Webhooks with the same `webhook-id` on every attempt and a fresh `webhook-timestamp`,
 * waits at most 10 s, never follows a redirect and reads at most 256 bytes of the answer. A 2xx acks the message; anything else retries it after
 * the schedule's delay (schedule.ts) until the WebhookStore says the delivery is settled.
 */
import { z } from "@hono/zod-openapi";
import { workerEnv } from "../env";
import { signatureHeader } from "./signature";
import { webhookStore } from "./store-access";
import { targetUrlProblems } from "../http/outbound/target-url";
import type { AttemptPlan, AttemptResult } from "./webhook-store";

export const DELIVERY_TIMEOUT_MS = 10_000;
export const EXCERPT_BYTES = 256;

const DeliveryMessage = z.object({ delivery_id: z.string() });

const UNREADABLE_SECRET: AttemptResult = {
  response_status: null,
  error: "not sent: the signing secret cannot be opened with OAUTH_TOKEN_KEY or OAUTH_TOKEN_KEY_PREVIOUS",
  response_excerpt: null,
};

export async function consumeWebhookBatch(batch: MessageBatch, env: Env): Promise<void> {
  await Promise.all(batch.messages.map((message) => consume(message, env)));
}

async function consume(message: Message, env: Env): Promise<void> {
  const parsed = DeliveryMessage.safeParse(message.body);
  if (!parsed.success) {
    message.ack();
    return;
  }
  const store = webhookStore(env);
  const id = parsed.data.delivery_id;
  const plan = await store.planAttempt(id);
  if (!plan) {
    message.ack();
    return;
  }
  const result = attemptRefusal(plan, env) ?? (await attempt(id, plan));
  const delay = await store.recordAttempt(id, plan.attempt, result);
  if (delay === null) message.ack();
  else message.retry({ delaySeconds: delay });
}

/**
 * Why the attempt is not sent, or null. The URL is checked again with today's rules: an endpoint
 * registered before a rule existed (or by a bypass since closed) is never fetched. And never
 * unsigned: a secret that no configured key opens (OAUTH_TOKEN_KEY rotated away) fails the attempt.
 */
export function attemptRefusal(plan: AttemptPlan, env: Env): AttemptResult | null {
  const allowLoopback = workerEnv(env).WEBHOOK_LOCAL_TARGETS === "loopback";
  const problems = targetUrlProblems(plan.url, { allowLoopback });
  if (problems.length > 0)
    return { response_status: null, error: `not sent: the URL ${problems.join("; ")}`, response_excerpt: null };
  return plan.secrets.length > 0 ? null : UNREADABLE_SECRET;
}

async function attempt(id: string, plan: AttemptPlan): Promise<AttemptResult> {
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    "content-type": "application/json",
    "user-agent": "readiness-catalog-webhooks",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": await signatureHeader(plan.secrets, { id, timestamp, body: plan.body }),
  };
  try {
    const response = await fetch(plan.url, {
      method: "POST",
      headers,
      body: plan.body,
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    return { response_status: response.status, error: null, response_excerpt: await excerptOf(response) };
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    return {
      response_status: null,
      error: timedOut
        ? `timed out after ${DELIVERY_TIMEOUT_MS / 1000} s`
        : `no response: ${String(error).slice(0, 200)}`,
      response_excerpt: null,
    };
  }
}

/** The first EXCERPT_BYTES of the body, as text; the rest is never read. */
async function excerptOf(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.byteLength;
    }
  } catch {
    // A body cut short still leaves what arrived.
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes.subarray(0, EXCERPT_BYTES)) || null;
}
