/**
 * Webhooks as a receiver sees them: a publish and a rollback announced through the real queue
 * consumer to a real HTTP receiver, signatures checked with `standardwebhooks` (the
 * specification's own library), retries with the same webhook-id, secret rotation. And the
 * webhook endpoint requests that are refused: each problem listed, nothing stored.
 */
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { expectDefined } from "../../src/common/expect";
import { rollbackRelease } from "../../src/node/catalog/publish";
import { EventBody } from "../../src/worker/webhooks/events";
import { publish, testRelease, workerStorage } from "./support/releases";
import { eventually, received, receiverUrl } from "./support/webhook-receiver";
import { announcePointer, postJson, webhookCaller } from "./webhooks-support";
import { sendTestEvent } from "./webhooks-store-calls";
import { call } from "./auth-fixtures";

const verified = (secret: string, hook: { headers: Record<string, string>; body: string }) =>
  EventBody.parse(new Webhook(secret).verify(hook.body, hook.headers));

/** The `count`th webhook the receiver `name` got, once it has got exactly `count`. */
const receivedNth = (name: string, count: number) =>
  eventually(async () => {
    const all = await received(name);
    return all.length === count ? all[count - 1] : undefined;
  });

describe("/v1/webhook_endpoints", () => {
  it("registers an endpoint, shows its secret once and lists it without", async () => {
    const caller = await webhookCaller();
    const created = await caller.register("https://example.com/hooks/catalog");
    expect(created).toMatchObject({
      object: "webhook_endpoint",
      url: "https://example.com/hooks/catalog",
      events: ["release.published", "release.rolled_back"],
      status: "enabled",
      disabled_at: null,
      previous_secret_expires_at: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await (await caller.as("/v1/webhook_endpoints")).json<{ data: object[]; has_more: boolean }>();
    expect(listed).toMatchObject({ object: "list", has_more: false, next: null, url: "/v1/webhook_endpoints" });
    expect(listed.data).toEqual([expect.not.objectContaining({ secret: expect.anything() })]);
    const { secret: _, ...view } = created;
    expect(await (await caller.as(`/v1/webhook_endpoints/${created.id}`)).json()).toEqual(view);
    expect(await caller.deliveries(created.id)).toEqual([]);
    const deleted = await caller.as(`/v1/webhook_endpoints/${created.id}`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect((await caller.as(`/v1/webhook_endpoints/${created.id}`)).status).toBe(404);
  });
});

describe("/openapi.json", () => {
  it("describes the endpoint routes and each event's delivery (OpenAPI 3.1 webhooks)", async () => {
    const caller = await webhookCaller();
    const doc = await (await caller.as("/openapi.json")).json<{
      paths: Record<string, object>;
      webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>;
    }>();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/v1/webhook_endpoints",
        "/v1/webhook_endpoints/{id}",
        "/v1/webhook_endpoints/{id}/rotate_secret",
        "/v1/webhook_endpoints/{id}/deliveries",
      ]),
    );
    expect(Object.keys(doc.webhooks)).toEqual(["release.published", "release.rolled_back", "watch.triggered"]);
    expect(doc.webhooks["release.published"]?.post.requestBody.content["application/json"]?.schema.$ref).toBe(
      "#/components/schemas/WebhookEvent",
    );
  });
});

describe("deliveries", () => {
  it("announces a publish and a rollback, signed, with the change counts", async () => {
    const [smaller, base] = [testRelease("smaller"), testRelease("base")];
    await publish(smaller);
    const caller = await webhookCaller();
    const endpoint = await caller.register(receiverUrl("publish"));
    expect(await announcePointer()).toEqual([]); // the pointer the endpoint was created under is not news

    await publish(base);
    const [published] = await announcePointer();
    expect(published).toMatchObject({ event: "release.published", status: "pending" });
    const first = await receivedNth("publish", 1);
    expect(first.headers["webhook-id"]).toBe(published?.id);
    expect(verified(endpoint.secret, first)).toMatchObject({
      type: "release.published",
      data: {
        release_id: base.manifest.release_id,
        previous_release_id: smaller.manifest.release_id,
        changes: { added: base.manifest.profile_count - smaller.manifest.profile_count, changed: 0, removed: 0 },
      },
    });

    await rollbackRelease(workerStorage(), smaller.manifest.release_id);
    const [rolledBack] = await announcePointer();
    const second = await receivedNth("publish", 2);
    expect(second.headers["webhook-id"]).toBe(rolledBack?.id);
    expect(verified(endpoint.secret, second)).toMatchObject({
      type: "release.rolled_back",
      data: {
        release_id: smaller.manifest.release_id,
        previous_release_id: base.manifest.release_id,
        changes: { added: 0, changed: 0, removed: 1 },
      },
    });
    const settled = await eventually(async () => {
      const list = await caller.deliveries(endpoint.id);
      return list.every((delivery) => delivery.status === "succeeded") ? list : undefined;
    });
    expect(settled.map((delivery) => delivery.event)).toEqual(["release.rolled_back", "release.published"]);
    expect(settled[0]?.attempts).toEqual([
      expect.objectContaining({ attempt: 1, response_status: 200, error: null, response_excerpt: "ok" }),
    ]);
  });

  it("retries a failed attempt after about 5 s with the same webhook-id, then succeeds", {
    timeout: 40_000,
  }, async () => {
    const caller = await webhookCaller();
    const endpoint = await caller.register(receiverUrl("retry", "?fail=1"));
    const delivery = await sendTestEvent(caller.accountId, endpoint.id);

    const afterFirst = await eventually(async () => {
      const [current] = await caller.deliveries(endpoint.id);
      return current?.attempts.length === 1 ? current : undefined;
    });
    expect(afterFirst).toMatchObject({ id: delivery.id, status: "pending" });
    expect(afterFirst.attempts[0]).toMatchObject({ response_status: 500, response_excerpt: "x".repeat(256) });
    const firstAt = Date.parse(expectDefined(afterFirst.attempts[0], "the first attempt").attempted_at);
    const nextAt = expectDefined(afterFirst.next_attempt_at, "a next attempt after a failed one");
    expect(Date.parse(nextAt) - firstAt).toBe(5_000);

    const done = await eventually(async () => {
      const [current] = await caller.deliveries(endpoint.id);
      return current?.status === "succeeded" ? current : undefined;
    }, 30_000);
    expect(done.attempts.map((attempt) => attempt.response_status)).toEqual([500, 200]);
    const retriedAt = Date.parse(expectDefined(done.attempts[1], "the second attempt").attempted_at);
    expect(retriedAt - firstAt).toBeGreaterThanOrEqual(5_000);
    expect(done.next_attempt_at).toBeNull();

    const hooks = await received("retry");
    expect(hooks.map((hook) => hook.headers["webhook-id"])).toEqual([delivery.id, delivery.id]);
    for (const hook of hooks) expect(verified(endpoint.secret, hook).type).toBe("webhook.test");
  });

  it("signs with the old and the new secret for 24 h after a rotation", async () => {
    const caller = await webhookCaller();
    const endpoint = await caller.register(receiverUrl("rotation"));
    const response = await caller.as(`/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, { method: "POST" });
    expect(response.status).toBe(200);
    const rotated = await response.json<{ secret: string; previous_secret_expires_at: string }>();
    expect(rotated.secret).not.toBe(endpoint.secret);
    const overlap = Date.parse(rotated.previous_secret_expires_at) - Date.now();
    expect(overlap).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000);

    await sendTestEvent(caller.accountId, endpoint.id);
    const hook = await eventually(async () => (await received("rotation")).at(0));
    expect(hook.headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(verified(rotated.secret, hook).type).toBe("webhook.test");
    expect(verified(endpoint.secret, hook).type).toBe("webhook.test");
  });
});

interface ProblemBody {
  code: string;
  detail: string;
  errors?: { path: string; message: string }[];
}

describe("POST /v1/webhook_endpoints refusals", () => {
  it("lists every problem of the body at once and stores nothing", async () => {
    const caller = await webhookCaller();
    const response = await call(
      "/v1/webhook_endpoints",
      postJson(caller.secret, { url: "ftp://user:pw@example.com/#x", events: ["release.deleted"], extra: 1 }),
    );
    expect(response.status).toBe(400);
    const problem = await response.json<ProblemBody>();
    expect(problem.code).toBe("bad_request");
    // One entry per field: the url's three problems are one entry's message.
    expect(problem.errors?.map((error) => error.path).sort()).toEqual(["events.0", "extra", "url"]);
    expect((await (await caller.as("/v1/webhook_endpoints")).json<{ data: unknown[] }>()).data).toEqual([]);
  });

  it("refuses an unknown query parameter", async () => {
    const caller = await webhookCaller();
    const list = await caller.as("/v1/webhook_endpoints?page=2");
    expect(list.status).toBe(400);
    const problem = await list.json<ProblemBody>();
    expect(problem.code).toBe("unknown_parameter");
    expect(problem.errors).toEqual([
      expect.objectContaining({
        path: "page",
        message: 'unknown query parameter "page": this route accepts limit, cursor',
      }),
    ]);
  });

  it("allows at most 5 endpoints per account (409), counted atomically", async () => {
    const caller = await webhookCaller();
    const attempts = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        call("/v1/webhook_endpoints", postJson(caller.secret, { url: `https://example.com/${i}` })),
      ),
    );
    const statuses = attempts.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 409, 409]);
    const refused = expectDefined(
      attempts.find((response) => response.status === 409),
      "a 409 among the attempts",
    );
    expect(await refused.json<ProblemBody>()).toMatchObject({ code: "webhook_endpoint_limit_reached" });
  });

  it("answers 404 for an endpoint of another account and 400 for a malformed id", async () => {
    const [owner, other] = [await webhookCaller(), await webhookCaller()];
    const endpoint = await owner.register("https://example.com/hook");
    for (const [method, suffix] of [
      ["GET", ""],
      ["DELETE", ""],
      ["POST", "/rotate_secret"],
      ["GET", "/deliveries"],
    ] as const) {
      const response = await other.as(`/v1/webhook_endpoints/${endpoint.id}${suffix}`, { method });
      expect(response.status, `${method} ${suffix}`).toBe(404);
      expect((await response.json<ProblemBody>()).code).toBe("webhook_endpoint_not_found");
    }
    expect((await owner.as(`/v1/webhook_endpoints/${endpoint.id}`)).status).toBe(200);
    expect((await owner.as("/v1/webhook_endpoints/we_nope")).status).toBe(400);
    for (const limit of ["0", "0x10", "1e1", "%205"])
      expect((await owner.as(`/v1/webhook_endpoints/${endpoint.id}/deliveries?limit=${limit}`)).status).toBe(400);
    expect((await owner.as(`/v1/webhook_endpoints/${endpoint.id}/deliveries?page=2`)).status).toBe(400);
  });
});
