/**
 * Webhook target URLs compared by their canonical host (lower-case, percent-decoded, the trailing dot
 * removed, no empty label) and IPv6 literals that embed an internal IPv4 address: refused by the
 * production rules and by the local rules (npm start, these tests), at registration and again
 * before each delivery attempt.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { attemptRefusal } from "../../src/worker/webhooks/consumer";
import { webhookStore } from "../../src/worker/webhooks/store-access";
import { targetUrlProblems } from "../../src/worker/http/outbound/target-url";
import { call } from "./auth-fixtures";
import { received, receiverUrl } from "./support/webhook-receiver";
import { sendTestEvent } from "./webhooks-store-calls";
import { postJson, webhookCaller } from "./webhooks-support";

const SPELLED_AROUND = [
  "https://localhost./hook",
  "https://foo.localhost./hook",
  "https://intranet./hook",
  "https://printer.local./hook",
  "https://db.internal./hook",
  "https://x.home.arpa./hook",
  "https://localhost%2e/hook",
  "https://LocalHost%2E/hook",
  "https://localhost../hook",
  "https://a..example.com/hook",
];

/** Each form with the internal IPv4 address it carries. */
const EMBEDDED: [string, string][] = [
  ["https://[2002:7f00:1::]/hook", "127.0.0.1, embedded in a 6to4"],
  ["https://[2002:a00:1::1]/hook", "10.0.0.1, embedded in a 6to4"],
  ["https://[64:ff9b::127.0.0.1]/hook", "127.0.0.1, embedded in a NAT64"],
  ["https://[64:ff9b::a9fe:a9fe]/hook", "169.254.169.254, embedded in a NAT64"],
  ["https://[64:ff9b:1:c0a8:1:100::]/hook", "192.168.1.1, embedded in a local-use NAT64"],
  ["https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook", "127.0.0.1, embedded in a Teredo"],
  ["https://[::ffff:10.1.2.3]/hook", "10.1.2.3, embedded in an IPv4-mapped"],
  ["https://[::ffff:7f00:1]/hook", "127.0.0.1, embedded in an IPv4-mapped"],
  ["https://[::127.0.0.1]/hook", "127.0.0.1, embedded in an IPv4-compatible"],
];

const production = { ...env, WEBHOOK_LOCAL_TARGETS: undefined } as Env;
const RULES: [string, Env][] = [
  ["production", production],
  ["local (loopback allowed)", env],
];

describe.each(RULES)("registration, %s rules", (_, bindings) => {
  const refused = [...SPELLED_AROUND, ...EMBEDDED.map(([url]) => url)];
  it.each(refused)("refuses %s (400, errors[].path url, nothing stored)", async (url) => {
    const caller = await webhookCaller();
    const response = await call("/v1/webhook_endpoints", postJson(caller.secret, { url }), bindings);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "bad_request", errors: [{ path: "url" }] });
    expect(await webhookStore(env).listEndpoints(caller.accountId)).toEqual([]);
  });
});

describe("the reasons", () => {
  it.each(EMBEDDED)("names the IPv4 address %s carries", (url, carried) => {
    for (const allowLoopback of [false, true])
      expect(targetUrlProblems(url, { allowLoopback })).toEqual([expect.stringContaining(carried)]);
  });

  it("refuses a transition form even around a public IPv4 address, naming the address to use", () => {
    expect(targetUrlProblems("https://[2002:808:808::]/", { allowLoopback: false })).toEqual([
      "must not point at an IPv6 address that embeds 8.8.8.8 (a 6to4 address): use 8.8.8.8 itself",
    ]);
  });

  it("says an empty label is one, and a trailing dot names the same host", () => {
    expect(targetUrlProblems("https://localhost../", { allowLoopback: true })).toEqual([
      expect.stringMatching(/^must not have an empty label/),
    ]);
    expect(targetUrlProblems("https://localhost./", { allowLoopback: false })).toEqual([
      "must not point at a loopback name",
    ]);
  });

  it("accepts public names with their trailing dot, and local rules take http://localhost. as localhost", () => {
    for (const url of ["https://example.com./hook", "https://8.8.8.8./x", "https://[2a00:1450::1]/x"])
      expect(targetUrlProblems(url, { allowLoopback: false }), url).toEqual([]);
    expect(targetUrlProblems("http://localhost.:8790/", { allowLoopback: true })).toEqual([]);
    expect(targetUrlProblems("http://localhost.:8790/", { allowLoopback: false })).toHaveLength(2);
  });
});

describe("delivery", () => {
  it("applies the deployment's rules: production refuses http://127.0.0.1, which local rules send to", () => {
    const plan = (url: string) => ({ url, secrets: ["whsec_AAAA"], body: "{}", attempt: 1 });
    expect(attemptRefusal(plan("http://127.0.0.1:9/hook"), production)).toMatchObject({
      response_status: null,
      error: "not sent: the URL must be https; must not point at a loopback address",
    });
    expect(attemptRefusal(plan("http://127.0.0.1:9/hook"), env)).toBeNull();
    for (const bindings of [production, env])
      expect(attemptRefusal(plan("https://localhost.:9/hook"), bindings)?.error).toMatch(/^not sent: .*loopback name/);
  });

  /** An endpoint whose stored URL is `url`, as one registered before today's rules would be. */
  async function storedWith(url: string) {
    const caller = await webhookCaller();
    const endpoint = await caller.register(receiverUrl("placeholder"));
    await runInDurableObject(webhookStore(env), async (_, state) => {
      state.storage.sql.exec("UPDATE endpoints SET url = ? WHERE id = ?", url, endpoint.id);
    });
    return { caller, endpoint };
  }

  it.each([
    ["https://localhost.:9/hook", "loopback name"],
    [receiverUrl("mapped").replace("127.0.0.1", "[::ffff:127.0.0.1]"), "127.0.0.1, embedded in an IPv4-mapped"],
  ])("sends nothing to %s: the attempt fails 'not sent' with the reason", async (url, reason) => {
    const { caller, endpoint } = await storedWith(url);
    await sendTestEvent(caller.accountId, endpoint.id);
    const delivery = await caller.attempted(endpoint.id);
    expect(delivery.attempts[0]).toMatchObject({
      response_status: null,
      error: expect.stringMatching(/^not sent: the URL /),
    });
    expect(delivery.attempts[0]?.error).toContain(reason);
    expect(await received("mapped")).toEqual([]);
  });
});
