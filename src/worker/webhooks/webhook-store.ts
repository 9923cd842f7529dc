/**
 * WebhookStore: one Durable Object per deployment (`getByName("webhooks")`) holding every account's
 * webhook endpoints, their deliveries and attempts (docs/storage.md "Webhooks"), and the publish
 * trigger: while an endpoint is enabled, an alarm reads KV `current` every 10 s and, when it names
 * another release than last time, records one delivery per subscribed endpoint and enqueues it;
 * it also sends the watch events publish wrote to D1 since its last look (`watch.triggered`).
 * Publish and rollback (Node CLIs) therefore only move the pointer and never wait on deliveries.
 *
 * Why one object: the publish fan-out reads every endpoint at once, and the 5-per-account rule is
 * a count then an insert with no await between (synchronous SQLite), so concurrent creates cannot
 * race. Endpoints are few (5 per account) and deliveries are pruned per endpoint.
 */
import { DurableObject } from "cloudflare:workers";
import { expectDefined } from "../../common/expect";
import { CurrentPointer, hexOf } from "../../common/catalog/manifest";
import { readCurrent, readManifest } from "../../common/catalog/store";
import { accept, refuse, type Outcome } from "../auth/account-views";
import { parseStoredJson } from "../http/stored-json";
import { changeCounts } from "./change-counts";
import {
  type DeliveredEventType,
  EVENT_TYPES,
  type EventBody,
  type EventType,
  EventTypeSchema,
  WATCH_EVENT_TYPE,
} from "./events";
import { eventsWrittenAfter, lastEventPlace } from "../watches/event-store";
import { newDeliveryId, newEndpointId } from "./ids";
import { MAX_ATTEMPTS, retryDelayAfter } from "./schedule";
import { openSigningSecret, sealSigningSecret } from "./secret-sealing";
import { newSigningSecret } from "./signature";
import type { DeliveryView, WebhookEndpointView } from "./views";
import { type DeliveryRow, type EndpointRow, WebhookTables } from "./webhook-tables";

export const MAX_ENDPOINTS_PER_ACCOUNT = 5;
export const POINTER_POLL_MS = 10_000;
const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
const ANNOUNCED = "announced_pointer";
/** The place (D1 rowid) of the last watch event announced. */
const WATCH_EVENTS_ANNOUNCED = "announced_watch_event";
const WATCH_EVENTS_PER_CHECK = 100;

export interface AttemptResult {
  response_status: number | null;
  error: string | null;
  response_excerpt: string | null;
}
/** What the queue consumer needs to make one attempt; secrets opened, ready to sign. */
export interface AttemptPlan {
  url: string;
  secrets: string[];
  body: string;
  attempt: number;
}

const EventList = EventTypeSchema.array();
const eventsOf = (row: EndpointRow): EventType[] => parseStoredJson(row.events, EventList, "webhook events") ?? [];

export class WebhookStore extends DurableObject<Env> {
  #tables: WebhookTables;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#tables = new WebhookTables(ctx.storage.sql);
  }

  async createEndpoint(
    accountId: string,
    input: { url: string; events: EventType[] },
  ): Promise<Outcome<{ endpoint: WebhookEndpointView; secret: string }>> {
    const secret = newSigningSecret();
    const sealed = await sealSigningSecret(this.env, secret);
    // From here to the insert there is no await: the count and the insert are one atomic step.
    const count = this.#tables.endpointsOf(accountId).length;
    if (count >= MAX_ENDPOINTS_PER_ACCOUNT) {
      return refuse(
        "webhook_endpoint_limit_reached",
        `This account already has ${count} webhook endpoints (at most ${MAX_ENDPOINTS_PER_ACCOUNT}). Delete one first: DELETE /v1/webhook_endpoints/{id}.`,
      );
    }
    const row: EndpointRow = {
      id: newEndpointId(),
      account_id: accountId,
      url: input.url,
      events: JSON.stringify(EVENT_TYPES.filter((type) => input.events.includes(type))),
      status: "enabled",
      secret_sealed: sealed,
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      created_at: new Date().toISOString(),
      disabled_at: null,
    };
    this.#tables.insertEndpoint(row);
    await this.#watchPointer();
    return accept({ endpoint: viewOfEndpoint(row), secret });
  }

  async listEndpoints(accountId: string): Promise<WebhookEndpointView[]> {
    return this.#tables.endpointsOf(accountId).map(viewOfEndpoint);
  }

  async getEndpoint(accountId: string, id: string): Promise<Outcome<WebhookEndpointView>> {
    const row = this.#owned(accountId, id);
    return row ? accept(viewOfEndpoint(row)) : notFound(id);
  }

  async deleteEndpoint(accountId: string, id: string): Promise<Outcome<WebhookEndpointView>> {
    const row = this.#owned(accountId, id);
    if (!row) return notFound(id);
    this.#tables.deleteEndpoint(id);
    return accept(viewOfEndpoint(row));
  }

  /** A new secret signs from now on; the one it replaces signs too for 24 h (both signatures sent). */
  async rotateSecret(
    accountId: string,
    id: string,
  ): Promise<Outcome<{ endpoint: WebhookEndpointView; secret: string }>> {
    const secret = newSigningSecret();
    const sealed = await sealSigningSecret(this.env, secret);
    const row = this.#owned(accountId, id);
    if (!row) return notFound(id);
    const expires = new Date(Date.now() + ROTATION_OVERLAP_MS).toISOString();
    this.#tables.rotateSecret(id, sealed, row.secret_sealed, expires);
    const rotated = expectDefined(this.#tables.endpoint(id), `webhook endpoint ${id}, just rotated`);
    return accept({ endpoint: viewOfEndpoint(rotated), secret });
  }

  /** Newest first, older than `before` (the last delivery of the previous page) when given. */
  async listDeliveries(
    accountId: string,
    id: string,
    limit: number,
    before?: { created_at: string; id: string },
  ): Promise<Outcome<{ data: DeliveryView[]; has_more: boolean }>> {
    if (!this.#owned(accountId, id)) return notFound(id);
    const rows = this.#tables.deliveriesOf(id, limit + 1, before);
    return accept({
      data: rows.slice(0, limit).map((row) => this.#viewOfDelivery(row)),
      has_more: rows.length > limit,
    });
  }

  /** The dashboard's "send test event": a `webhook.test` delivery naming the current release. */
  async sendTestEvent(accountId: string, id: string): Promise<Outcome<DeliveryView>> {
    const row = this.#owned(accountId, id);
    if (!row) return notFound(id);
    if (row.status !== "enabled") return refuse("webhook_endpoint_disabled", `Webhook endpoint ${id} is disabled.`);
    const pointer = await readCurrent(this.env.CATALOG_KV);
    const body: EventBody = {
      type: "webhook.test",
      timestamp: new Date().toISOString(),
      data: {
        release_id: pointer?.release_id ?? ZERO_RELEASE,
        previous_release_id: pointer?.previous[0] ?? null,
        changes: null,
      },
    };
    const [delivery] = await this.#enqueue(body, [row]);
    return accept(this.#viewOfDelivery(expectDefined(delivery, `the delivery to endpoint ${id}, just enqueued`)));
  }

  /** Compares KV `current` with the pointer last announced; announces a move. Also the alarm's work. */
  async checkPointer(): Promise<DeliveryView[]> {
    const pointer = await readCurrent(this.env.CATALOG_KV);
    const announced = this.#announced();
    if (!pointer) return [];
    this.#tables.setState(ANNOUNCED, JSON.stringify(pointer));
    if (!announced || announced.release_id === pointer.release_id) return [];
    const type: EventType = announced.previous.includes(pointer.release_id)
      ? "release.rolled_back"
      : "release.published";
    const endpoints = this.#tables.enabledEndpoints().filter((row) => eventsOf(row).includes(type));
    if (endpoints.length === 0) return [];
    const [release, previous] = await Promise.all([
      readManifest(this.env.CATALOG_KV, hexOf(pointer.release_id)),
      readManifest(this.env.CATALOG_KV, hexOf(announced.release_id)),
    ]);
    const changes = release ? await changeCounts(this.env.RELEASES, release, previous).catch(() => null) : null;
    const body: EventBody = {
      type,
      timestamp: new Date().toISOString(),
      data: { release_id: pointer.release_id, previous_release_id: announced.release_id, changes },
    };
    return (await this.#enqueue(body, endpoints)).map((row) => this.#viewOfDelivery(row));
  }

  /**
   * Sends each watch event written since the last check to its account's endpoints that subscribe
   * to `watch.triggered`. The place announced moves in the same synchronous step as the deliveries
   * are recorded, so no event is recorded twice. Also the alarm's work.
   */
  async checkWatchEvents(): Promise<DeliveryView[]> {
    const announced = this.#tables.state(WATCH_EVENTS_ANNOUNCED);
    if (announced === null) {
      this.#tables.setState(WATCH_EVENTS_ANNOUNCED, String(await lastEventPlace(this.env.CATALOG_DB)));
      return [];
    }
    const written = await eventsWrittenAfter(this.env.CATALOG_DB, Number(announced), WATCH_EVENTS_PER_CHECK);
    // Another check announced them while this one read D1.
    if (this.#tables.state(WATCH_EVENTS_ANNOUNCED) !== announced) return [];
    const last = written.at(-1);
    if (!last) return [];
    this.#tables.setState(WATCH_EVENTS_ANNOUNCED, String(last.place));
    const subscribed = this.#tables.enabledEndpoints().filter((row) => eventsOf(row).includes(WATCH_EVENT_TYPE));
    const sent: DeliveryView[] = [];
    for (const { accountId, event } of written) {
      const endpoints = subscribed.filter((row) => row.account_id === accountId);
      if (endpoints.length === 0) continue;
      const body: EventBody = { type: WATCH_EVENT_TYPE, timestamp: event.at, data: event };
      sent.push(...(await this.#enqueue(body, endpoints)).map((row) => this.#viewOfDelivery(row)));
    }
    return sent;
  }

  override async alarm(): Promise<void> {
    await this.checkPointer();
    await this.checkWatchEvents();
    if (this.#tables.enabledEndpoints().length > 0) await this.ctx.storage.setAlarm(Date.now() + POINTER_POLL_MS);
  }

  /** The consumer's next attempt of a delivery, or null when there is nothing left to try (then it acks). */
  async planAttempt(deliveryId: string): Promise<AttemptPlan | null> {
    const delivery = this.#tables.delivery(deliveryId);
    if (delivery?.status !== "pending") return null;
    const endpoint = this.#tables.endpoint(delivery.endpoint_id);
    if (endpoint?.status !== "enabled") {
      this.#tables.settleDelivery(deliveryId, "failed", null);
      return null;
    }
    const sealed = [endpoint.secret_sealed];
    const expires = endpoint.previous_secret_expires_at;
    if (endpoint.previous_secret_sealed && expires && expires > new Date().toISOString())
      sealed.push(endpoint.previous_secret_sealed);
    const secrets = await Promise.all(sealed.map((text) => openSigningSecret(this.env, text)));
    return {
      url: endpoint.url,
      secrets: secrets.filter((secret): secret is string => secret !== null),
      body: delivery.body,
      attempt: this.#tables.attemptCount(deliveryId) + 1,
    };
  }

  /**
   * Records an attempt; returns the seconds until the next one, or null when the delivery is
   * settled. The last failed attempt marks it failed and disables its endpoint (docs/webhooks.md).
   */
  async recordAttempt(deliveryId: string, attempt: number, result: AttemptResult): Promise<number | null> {
    const delivery = this.#tables.delivery(deliveryId);
    if (delivery?.status !== "pending") return null;
    const now = new Date();
    this.#tables.insertAttempt({ delivery_id: deliveryId, attempt, attempted_at: now.toISOString(), ...result });
    const status = result.response_status;
    if (status !== null && status >= 200 && status < 300) {
      this.#tables.settleDelivery(deliveryId, "succeeded", null);
      return null;
    }
    const delay = attempt < MAX_ATTEMPTS ? retryDelayAfter(attempt) : null;
    if (delay === null) {
      this.#tables.settleDelivery(deliveryId, "failed", null);
      this.#tables.disableEndpoint(delivery.endpoint_id, now.toISOString());
      return null;
    }
    this.#tables.settleDelivery(deliveryId, "pending", new Date(now.getTime() + delay * 1000).toISOString());
    return delay;
  }

  async #enqueue(body: EventBody, endpoints: EndpointRow[]): Promise<DeliveryRow[]> {
    const text = JSON.stringify(body);
    const now = new Date().toISOString();
    const rows = endpoints.map(
      (endpoint): DeliveryRow => ({
        id: newDeliveryId(),
        endpoint_id: endpoint.id,
        event: body.type as DeliveredEventType,
        body: text,
        status: "pending",
        created_at: now,
        next_attempt_at: now,
      }),
    );
    for (const row of rows) this.#tables.insertDelivery(row);
    await this.env.WEBHOOK_QUEUE.sendBatch(rows.map((row) => ({ body: { delivery_id: row.id } })));
    return rows;
  }

  /**
   * Starts the watch when it is stopped (no endpoint was enabled), from the pointer as it is now:
   * what was published before, or while nobody listened, is not announced.
   */
  async #watchPointer(): Promise<void> {
    if ((await this.ctx.storage.getAlarm()) !== null) return;
    const pointer = await readCurrent(this.env.CATALOG_KV);
    if (pointer) this.#tables.setState(ANNOUNCED, JSON.stringify(pointer));
    this.#tables.setState(WATCH_EVENTS_ANNOUNCED, String(await lastEventPlace(this.env.CATALOG_DB)));
    await this.ctx.storage.setAlarm(Date.now() + POINTER_POLL_MS);
  }

  #announced(): CurrentPointer | null {
    const text = this.#tables.state(ANNOUNCED);
    return text === null ? null : parseStoredJson(text, CurrentPointer, "announced pointer");
  }

  #owned(accountId: string, id: string): EndpointRow | undefined {
    const row = this.#tables.endpoint(id);
    return row?.account_id === accountId ? row : undefined;
  }

  #viewOfDelivery(row: DeliveryRow): DeliveryView {
    return {
      id: row.id,
      event: row.event,
      status: row.status,
      created_at: row.created_at,
      next_attempt_at: row.next_attempt_at,
      attempts: this.#tables.attemptsOf(row.id).map(({ delivery_id: _, ...attempt }) => attempt),
    };
  }
}

/** A test event on a deployment where nothing is published names no real release. */
const ZERO_RELEASE = `sha256:${"0".repeat(64)}`;

const notFound = (id: string) => refuse("webhook_endpoint_not_found", `No webhook endpoint ${id} on this account.`);

function viewOfEndpoint(row: EndpointRow): WebhookEndpointView {
  return {
    object: "webhook_endpoint",
    id: row.id,
    url: row.url,
    events: eventsOf(row),
    status: row.status,
    created_at: row.created_at,
    disabled_at: row.disabled_at,
    previous_secret_expires_at:
      row.previous_secret_expires_at && row.previous_secret_expires_at > new Date().toISOString()
        ? row.previous_secret_expires_at
        : null,
  };
}
