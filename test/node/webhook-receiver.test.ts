/**
 * `npm run webhooks:receive`'s receiver in process (its door is run by test/e2e/start.test.ts, as
 * `npm start` prints it): each delivery on one line; 401 to a signature it refuses and 400 to a
 * malformed request, so the sender's log shows the failure and retries; a webhook-id repeated
 * within 5 min acknowledged once more but not processed again; `--fail` answering 500 first.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { listenForWebhooks, REPLAY_WINDOW_MS, type ReceiverOptions } from "../../src/node/webhooks/receiver";

const SECRET = `whsec_${Buffer.from("a secret of the test, 32 bytes..").toString("base64")}`;
const OTHER = `whsec_${Buffer.from("another secret, also 32 bytes...").toString("base64")}`;
const EVENT = { type: "release.published", data: { release_id: "sha256:abc", changes: { added: 2 } } };
const BODY = JSON.stringify(EVENT);

let close: (() => Promise<void>) | undefined;
afterEach(() => close?.());

async function receiver(options: Partial<ReceiverOptions> = {}) {
  const lines: string[] = [];
  const listening = await listenForWebhooks({ port: 0, fail: 0, ...options }, (line) => lines.push(line));
  close = listening.close;
  const deliver = (body: string, headers: Record<string, string>, method = "POST") =>
    fetch(`http://127.0.0.1:${listening.port}/`, { method, headers, body: method === "GET" ? undefined : body });
  return { lines, deliver };
}

const signed = (id: string, body: string, secret = SECRET, at = new Date()) => ({
  "webhook-id": id,
  "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
  "webhook-signature": new Webhook(secret).sign(id, at, body),
});

describe("the webhook receiver", () => {
  it("prints each delivery with its id, event, release and changes, and verifies a good signature", async () => {
    const { lines, deliver } = await receiver({ secret: SECRET });
    const answer = await deliver(BODY, signed("msg_1", BODY));
    expect([answer.status, await answer.text()]).toEqual([200, "ok"]);
    expect(lines).toEqual([
      expect.stringMatching(/ msg_1 release\.published sha256:abc changes \{"added":2\} → 200, signature verified$/),
    ]);
  });

  it.each([
    ["signed with another secret", () => signed("msg_2", BODY, OTHER), /No matching signature found/],
    ["not signed", () => ({ ...signed("msg_2", BODY), "webhook-signature": "" }), /no webhook-signature header/],
    ["timestamped 10 min ago", () => signed("msg_2", BODY, SECRET, new Date(Date.now() - 600_000)), /too old/],
    ["for another body", () => signed("msg_2", "{}"), /No matching signature found/],
  ])("answers 401 to a delivery %s, and says SIGNATURE REFUSED", async (_, headers, reason) => {
    const { lines, deliver } = await receiver({ secret: SECRET });
    const answer = await deliver(BODY, headers());
    expect(answer.status).toBe(401);
    expect(await answer.text()).toMatch(reason);
    expect(lines).toEqual([expect.stringMatching(/ msg_2 → 401, SIGNATURE REFUSED: /)]);
  });

  it.each([
    ["no webhook-id", BODY, { "webhook-timestamp": "1700000000" }, /no webhook-id header/],
    ["a webhook-timestamp that is not seconds", BODY, { "webhook-id": "m", "webhook-timestamp": "soon" }, /Unix/],
    ["a body that is not JSON", "x".repeat(100), { "webhook-id": "m", "webhook-timestamp": "1" }, /not JSON/],
  ])("answers 400 to a request with %s", async (_, body, headers, reason) => {
    const { lines, deliver } = await receiver();
    const answer = await deliver(body, headers);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toMatch(reason);
    expect(lines).toEqual([expect.stringMatching(/ → 400, /)]);
  });

  it("checks the signature before the body: a forged body that is not JSON is 401, not 400", async () => {
    const { deliver } = await receiver({ secret: SECRET });
    expect((await deliver("not json", signed("msg_3", "something else"))).status).toBe(401);
  });

  it("answers 405 to anything but POST", async () => {
    const { deliver } = await receiver();
    const answer = await deliver("", {}, "GET");
    expect([answer.status, answer.headers.get("allow")]).toEqual([405, "POST"]);
  });

  it("acknowledges a webhook-id repeated within 5 min without processing it again; after 5 min it is new", async () => {
    let now = 1_000_000;
    const { lines, deliver } = await receiver({ now: () => now });
    const headers = { "webhook-id": "msg_once", "webhook-timestamp": "1" };
    const statuses = [(await deliver(BODY, headers)).status];
    now += REPLAY_WINDOW_MS - 1;
    const again = await deliver(BODY, headers);
    statuses.push(again.status);
    expect(await again.text()).toBe("already received");
    now += 2;
    statuses.push((await deliver(BODY, headers)).status);
    expect(statuses).toEqual([200, 200, 200]);
    expect(REPLAY_WINDOW_MS).toBe(5 * 60_000);
    expect(lines).toEqual([
      expect.stringMatching(/ msg_once release\.published .* → 200$/),
      expect.stringMatching(/ msg_once again within 5 min → 200, not processed again$/),
      expect.stringMatching(/ msg_once release\.published .* → 200$/),
    ]);
  });

  it("answers 500 to the first --fail deliveries, then 200; a retry of a failed one is processed", async () => {
    const { lines, deliver } = await receiver({ fail: 2 });
    const statuses = [];
    for (const id of ["msg_a", "msg_a", "msg_b", "msg_b"])
      statuses.push((await deliver(BODY, { "webhook-id": id, "webhook-timestamp": "1" })).status);
    expect(statuses).toEqual([500, 500, 200, 200]);
    expect(lines.map((line) => line.replace(/^\S+ /, "").replace(/ release.* → /, " → "))).toEqual([
      "msg_a → 500",
      "msg_a → 500",
      "msg_b → 200",
      "msg_b again within 5 min → 200, not processed again",
    ]);
  });
});
