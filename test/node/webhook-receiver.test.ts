/**
 * `npm run webhooks:receive`'s receiver in process (its door is run by test/e2e/start.test.ts, as
 * `npm start` prints it): each delivery on one line, the signature checked with standardwebhooks
 * when given the secret, and `--fail` answering 500 to the first deliveries.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { listenForWebhooks, webhookReceiver } from "../../src/node/webhooks/receive-command";
import { runInProcess } from "./cli-in-process";

const SECRET = `whsec_${Buffer.from("a secret of the test, 32 bytes..").toString("base64")}`;
const EVENT = { type: "release.published", data: { release_id: "sha256:abc", changes: { added: 2 } } };

let close: (() => Promise<void>) | undefined;
afterEach(() => close?.());

async function receiver(options: { secret?: string; fail?: number } = {}) {
  const lines: string[] = [];
  const listening = await listenForWebhooks({ port: 0, fail: 0, ...options }, (line) => lines.push(line));
  close = listening.close;
  const deliver = (body: string, headers: Record<string, string>) =>
    fetch(`http://127.0.0.1:${listening.port}/`, { method: "POST", headers, body });
  return { lines, deliver };
}

const signed = (id: string, body: string, secret = SECRET) => {
  const timestamp = new Date();
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(id, timestamp, body),
  };
};

describe("the webhook receiver", () => {
  it("prints each delivery with its id, event, release and changes, and verifies a good signature", async () => {
    const { lines, deliver } = await receiver({ secret: SECRET });
    const body = JSON.stringify(EVENT);
    const answer = await deliver(body, signed("msg_1", body));
    expect([answer.status, await answer.text()]).toEqual([200, "ok"]);
    expect(lines).toEqual([
      expect.stringMatching(/ msg_1 release\.published sha256:abc changes \{"added":2\} → 200, signature verified$/),
    ]);
  });

  it("says SIGNATURE REFUSED for a delivery signed with another secret, and still answers", async () => {
    const { lines, deliver } = await receiver({ secret: SECRET });
    const body = JSON.stringify(EVENT);
    const other = `whsec_${Buffer.from("another secret, also 32 bytes...").toString("base64")}`;
    expect((await deliver(body, signed("msg_2", body, other))).status).toBe(200);
    expect(lines).toEqual([expect.stringMatching(/ msg_2 .* → 200, SIGNATURE REFUSED: /)]);
  });

  it("answers 500 to the first --fail deliveries, then 200; a body that is not JSON is shown cut", async () => {
    const { lines, deliver } = await receiver({ fail: 2 });
    const statuses = [];
    for (const id of ["msg_a", "msg_b", "msg_c"])
      statuses.push((await deliver("x".repeat(100), { "webhook-id": id })).status);
    expect(statuses).toEqual([500, 500, 200]);
    expect(lines).toEqual([
      expect.stringMatching(/ msg_a \(not JSON: x{80}\) → 500$/),
      expect.stringMatching(/ msg_b \(not JSON: x{80}\) → 500$/),
      expect.stringMatching(/ msg_c \(not JSON: x{80}\) → 200$/),
    ]);
  });

  it.each([
    [["--port", "70000"], /--port 70000 is not a port/],
    [["--fail=-1"], /--fail -1 is not a count/],
    [["--colour"], /Unknown option '--colour'/],
  ])("refuses %j as a usage error (exit 2, with the help)", async (argv, message) => {
    const run = await runInProcess(webhookReceiver.run, argv);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain("Usage: npm run webhooks:receive");
  });
});
