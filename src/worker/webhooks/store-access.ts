/** The deployment's one WebhookStore (webhook-store.ts), for routes, the dashboard and the queue consumer. */
export const webhookStore = (env: Env) => env.WEBHOOKS.getByName("webhooks");
