/**
 * The dashboard's Webhooks pages: register (the secret shown once), send a test event and see it
 * delivered to the real receiver, delete after confirming; CSRF on every post; another account's
 * endpoint is not found.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { webhookStore } from "../../src/worker/webhooks/store-access";
import { newAccount } from "./auth-fixtures";
import { csrfOf, type DashboardClient, formIdOf, signIn } from "./dashboard-support";
import { eventually, received, receiverUrl } from "./support/webhook-receiver";

async function register(client: DashboardClient, url: string, origin?: string | null) {
  const html = await (await client.get("/dashboard/webhooks")).text();
  return client.post(
    "/dashboard/webhooks",
    { csrf_token: csrfOf(html), form_id: formIdOf(html), url, events: ["release.published", "release.rolled_back"] },
    { origin },
  );
}

/** The id of the account's first webhook endpoint. */
async function endpointIdOf(accountId: string): Promise<string> {
  const [endpoint] = await webhookStore(env).listEndpoints(accountId);
  return expectDefined(endpoint, `a webhook endpoint of ${accountId}`).id;
}

describe("/dashboard/webhooks", () => {
  it("registers an endpoint, shows its secret once, sends a test event and deletes it", async () => {
    const account = await newAccount();
    const client = await signIn(account);
    const created = await register(client, receiverUrl("dashboard"));
    expect(created.status).toBe(200);
    const html = await created.text();
    const secret = /whsec_[A-Za-z0-9+/=]+/.exec(html)?.[0];
    expect(secret).toBeDefined();
    const list = await (await client.get("/dashboard/webhooks")).text();
    expect(list).toContain(receiverUrl("dashboard").replaceAll("&", "&amp;"));
    expect(list).not.toContain(secret);

    const endpoint = `/dashboard/webhooks/${await endpointIdOf(account.accountId)}`;
    const page = await (await client.get(endpoint)).text();
    expect(page).toContain("Nothing delivered yet.");
    const sent = await client.post(`${endpoint}/test`, { csrf_token: csrfOf(page) });
    expect(sent.status).toBe(303);
    expect(sent.headers.get("Location")).toBe(`${endpoint}?sent`);
    const hook = await eventually(async () => (await received("dashboard")).at(0));
    expect(JSON.parse(hook.body)).toMatchObject({ type: "webhook.test" });
    const deliveries = await eventually(async () => {
      const text = await (await client.get(endpoint)).text();
      return text.includes("succeeded") ? text : undefined;
    });
    expect(deliveries).toContain(hook.headers["webhook-id"]);

    const confirm = await (await client.get(`${endpoint}/delete`)).text();
    const deleted = await client.post(`${endpoint}/delete`, { csrf_token: csrfOf(confirm) });
    expect(deleted.status).toBe(303);
    expect(await webhookStore(env).listEndpoints(account.accountId)).toEqual([]);
  });

  it("refuses a post from another site and registers nothing", async () => {
    const account = await newAccount();
    const client = await signIn(account);
    const refused = await register(client, "https://example.com/hook", "https://evil.example");
    expect(refused.status).toBe(403);
    expect(await webhookStore(env).listEndpoints(account.accountId)).toEqual([]);
  });

  it("refuses an internal URL (also spelled with a trailing dot) with the reason, and another account's endpoint is not found", async () => {
    const [owner, other] = [await newAccount(), await newAccount()];
    const ownerClient = await signIn(owner);
    const refused = await register(ownerClient, "https://169.254.169.254/latest");
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("must not point at a link-local address");
    const dotted = await register(ownerClient, "https://localhost./hook");
    expect([dotted.status, await dotted.text()]).toEqual([
      400,
      expect.stringContaining("must not point at a loopback name"),
    ]);
    expect((await register(ownerClient, "https://example.com/hook")).status).toBe(200);
    const endpoint = `/dashboard/webhooks/${await endpointIdOf(owner.accountId)}`;
    const otherClient = await signIn(other);
    expect((await otherClient.get(endpoint)).status).toBe(404);
    const page = await (await otherClient.get("/dashboard/webhooks")).text();
    const attempt = await otherClient.post(`${endpoint}/delete`, { csrf_token: csrfOf(page) });
    expect(attempt.status).toBe(404);
    expect(await webhookStore(env).listEndpoints(owner.accountId)).toHaveLength(1);
  });
});
