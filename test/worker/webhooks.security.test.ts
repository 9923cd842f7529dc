/**
 * Webhook safety: SSRF refusals at registration (production refuses loopback too), scope checks,
 * secrets never stored in clear, redirects never followed, response bodies cut to an excerpt.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DELIVERY_TIMEOUT_MS } from "../../src/worker/webhooks/consumer";
import { webhookStore } from "../../src/worker/webhooks/store-access";
import { targetUrlProblems } from "../../src/worker/http/outbound/target-url";
import { accountWithKey, bearer, call } from "./auth-fixtures";
import { received, receiverUrl } from "./support/webhook-receiver";
import { sendTestEvent } from "./webhooks-store-calls";
import { postJson, webhookCaller } from "./webhooks-support";

const REFUSED = [
  "http://example.com/hook",
  "https://127.0.0.1/hook",
  "https://0x7f.1/hook",
  "https://10.1.2.3/hook",
  "https://172.20.0.1/hook",
  "https://192.168.1.1/hook",
  "https://169.254.169.254/latest/meta-data",
  "https://100.64.0.1/hook",
  "https://0.0.0.0/hook",
  "https://[::1]/hook",
  "https://[fe80::1]/hook",
  "https://[fd00::1]/hook",
  "https://[::ffff:127.0.0.1]/hook",
  "https://localhost/hook",
  "https://api.localhost/hook",
  "https://intranet/hook",
  "https://printer.local/hook",
  "https://db.internal/hook",
  "https://user:secret@example.com/hook",
  "not a url",
];

describe("SSRF refusals", () => {
  const production = { ...env, WEBHOOK_LOCAL_TARGETS: undefined } as Env;

  it.each(REFUSED)("production refuses %s", async (url) => {
    const caller = await webhookCaller();
    const response = await call("/v1/webhook_endpoints", postJson(caller.secret, { url }), production);
    expect(response.status).toBe(400);
    expect((await response.json<{ errors: { path: string }[] }>()).errors[0]?.path).toBe("url");
  });

  it("production refuses http://127.0.0.1, which a local deployment (npm start) accepts", async () => {
    const caller = await webhookCaller();
    const body = { url: "http://127.0.0.1:9999/hook" };
    expect((await call("/v1/webhook_endpoints", postJson(caller.secret, body), production)).status).toBe(400);
    expect((await call("/v1/webhook_endpoints", postJson(caller.secret, body))).status).toBe(201);
  });

  it("accepts public https targets", () => {
    for (const url of ["https://example.com/hook", "https://8.8.8.8/x", "https://[2606:4700::1111]/x"])
      expect(targetUrlProblems(url, { allowLoopback: false }), url).toEqual([]);
  });
});

describe("access", () => {
  it("needs the manage:webhooks scope (403 insufficient_scope)", async () => {
    const { secret } = await accountWithKey({ scopes: ["read:catalog"] });
    const response = await call("/v1/webhook_endpoints", { headers: bearer(secret) });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "insufficient_scope" });
  });

  it("needs a credential (401)", async () => {
    expect((await call("/v1/webhook_endpoints")).status).toBe(401);
  });
});

describe("secrets and responses", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("stores the signing secret sealed, never in clear", async () => {
    const caller = await webhookCaller();
    const endpoint = await caller.register("https://example.com/sealed");
    const secretPart = endpoint.secret.slice("whsec_".length);
    const rows = await runInDurableObject(webhookStore(env), async (_, state) =>
      state.storage.sql.exec("SELECT * FROM endpoints WHERE id = ?", endpoint.id).toArray(),
    );
    const stored = JSON.stringify(rows);
    expect(rows).toHaveLength(1);
    expect(stored).not.toContain(secretPart);
    expect(stored).toContain("whsealed_");
  });

  it("never sends a delivery unsigned: a secret no key opens fails the attempt unsent", async () => {
    const caller = await webhookCaller();
    const endpoint = await caller.register(receiverUrl("unsealable"));
    await runInDurableObject(webhookStore(env), async (_, state) => {
      state.storage.sql.exec("UPDATE endpoints SET secret_sealed = 'whsealed_AAAA' WHERE id = ?", endpoint.id);
    });
    await sendTestEvent(caller.accountId, endpoint.id);
    const delivery = await caller.attempted(endpoint.id);
    expect(delivery.attempts[0]).toMatchObject({ response_status: null, error: expect.stringMatching(/^not sent/) });
    expect(await received("unsealable")).toEqual([]);
  });

  it("gives up on a receiver that does not answer within 10 s", async () => {
    // The consumer runs in this isolate: its 10 s wait is asked of AbortSignal.timeout (checked
    // below), and the signal fires after a hundredth of it, so the test does not wait 10 s.
    const timeout = AbortSignal.timeout.bind(AbortSignal);
    const asked = vi.spyOn(AbortSignal, "timeout").mockImplementation((ms) => timeout(ms / 100));
    const caller = await webhookCaller();
    const endpoint = await caller.register(receiverUrl("hanging", "?hang=1"));
    await sendTestEvent(caller.accountId, endpoint.id);
    const delivery = await caller.attempted(endpoint.id);
    expect(asked).toHaveBeenCalledWith(DELIVERY_TIMEOUT_MS);
    expect(DELIVERY_TIMEOUT_MS).toBe(10_000);
    expect(delivery).toMatchObject({ status: "pending" });
    expect(delivery.attempts[0]).toMatchObject({ response_status: null, error: "timed out after 10 s" });
    expect(await received("hanging")).toHaveLength(1);
  });

  it("never follows a redirect: a 302 is a failed attempt", async () => {
    const caller = await webhookCaller();
    const endpoint = await caller.register(receiverUrl("redirected", "?redirect=1"));
    await sendTestEvent(caller.accountId, endpoint.id);
    const delivery = await caller.attempted(endpoint.id);
    expect(delivery).toMatchObject({
      status: "pending",
      attempts: [expect.objectContaining({ response_status: 302 })],
    });
    expect(await received("elsewhere:redirected")).toEqual([]);
  });
});
