/**
 * The local webhook receiver behind `npm run webhooks:receive`: listens on 127.0.0.1, and answers
 * each request as a Standard Webhooks receiver should, so that the sender's delivery log tells the
 * truth: 400 to a malformed request (no webhook-id, a webhook-timestamp that is not a number, a body
 * that is not JSON), 401 to a signature it refuses (absent, forged, or a timestamp more than 5 min off
 * this clock; only when given the endpoint's secret), 2xx to a delivery it processed. A webhook-id
 * already processed within the last 5 min (the signature's own tolerance, so a replay older than that
 * is refused as stale) is acknowledged with 200 and not processed again: delivery is at least once.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Webhook, WebhookVerificationError } from "standardwebhooks";

/** standardwebhooks' tolerance for webhook-timestamp: the window in which an id is remembered. */
export const REPLAY_WINDOW_MS = 5 * 60_000;

export interface ReceiverOptions {
  /** 0: any free port. */
  port: number;
  /** The endpoint's signing secret (whsec_…): each delivery's signature is verified with it. */
  secret?: string;
  /** Answer 500 to the first `fail` deliveries (they are not remembered: their retries are processed). */
  fail: number;
  /** The clock of the replay window (tests move it). */
  now?: () => number;
}

type Answer = { status: number; text: string; line: string };

/** The receiver itself: one line through `print` per request, until closed. */
export async function listenForWebhooks(
  options: ReceiverOptions,
  print: (line: string) => void,
): Promise<{ port: number; close: () => Promise<void> }> {
  const decide = receiverState(options);
  const server = createServer(async (request, response) => {
    const answer = decide(request.method ?? "", headersOf(request), await bodyOf(request));
    print(`${new Date().toISOString()} ${answer.line}`);
    send(response, answer);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", resolve);
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function send(response: ServerResponse, answer: Answer): void {
  const allow = answer.status === 405 ? { allow: "POST" } : {};
  response.writeHead(answer.status, { "content-type": "text/plain; charset=utf-8", ...allow }).end(answer.text);
}

const HEADERS = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;
type WebhookHeaders = Record<(typeof HEADERS)[number], string>;

function headersOf(request: IncomingMessage): WebhookHeaders {
  const value = (name: string) => String(request.headers[name] ?? "");
  return {
    "webhook-id": value("webhook-id"),
    "webhook-timestamp": value("webhook-timestamp"),
    "webhook-signature": value("webhook-signature"),
  };
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The receiver's decisions, with what it remembers: the deliveries counted and the ids processed. */
function receiverState(options: ReceiverOptions) {
  const verifier = options.secret ? new Webhook(options.secret) : null;
  const now = options.now ?? Date.now;
  const processed = new Map<string, number>();
  let counted = 0;
  return (method: string, headers: WebhookHeaders, body: string): Answer => {
    const id = headers["webhook-id"] || "-";
    if (method !== "POST") return { status: 405, text: "POST only", line: `${method} ${id} → 405, not a delivery` };
    const malformed = malformedReason(headers);
    if (malformed) return { status: 400, text: malformed, line: `${id} → 400, malformed: ${malformed}` };
    const refused = verifier && signatureRefusal(verifier, body, headers);
    if (refused) return { status: 401, text: refused, line: `${id} → 401, SIGNATURE REFUSED: ${refused}` };
    forgetOlderThan(processed, now() - REPLAY_WINDOW_MS);
    if (processed.has(id))
      return { status: 200, text: "already received", line: `${id} again within 5 min → 200, not processed again` };
    const event = eventOf(body);
    if (!event)
      return { status: 400, text: "the body is not JSON", line: `${id} → 400, not JSON: ${body.slice(0, 80)}` };
    counted += 1;
    const status = counted <= options.fail ? 500 : 200;
    if (status === 200) processed.set(id, now());
    const checked = verifier ? ", signature verified" : "";
    return {
      status,
      text: status === 200 ? "ok" : "failing on purpose (--fail)",
      line: `${id} ${summary(event)} → ${status}${checked}`,
    };
  };
}

function malformedReason(headers: WebhookHeaders): string | null {
  if (!headers["webhook-id"]) return "no webhook-id header";
  if (!/^\d+$/.test(headers["webhook-timestamp"])) return "webhook-timestamp is not Unix seconds";
  return null;
}

function signatureRefusal(verifier: Webhook, body: string, headers: WebhookHeaders): string | null {
  try {
    verifier.verify(body, headers, { jsonParse: false });
    return null;
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return headers["webhook-signature"] ? error.message : "no webhook-signature header";
  }
}

function forgetOlderThan(processed: Map<string, number>, oldest: number): void {
  // A Map iterates in insertion order, which is time order: the old entries are first.
  for (const [id, at] of processed) {
    if (at >= oldest) return;
    processed.delete(id);
  }
}

type Event = { type?: string; data?: { release_id?: string; changes?: unknown } };

function eventOf(body: string): Event | null {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === "object" && parsed !== null ? (parsed as Event) : null;
  } catch {
    return null;
  }
}

const summary = (event: Event) =>
  `${event.type} ${event.data?.release_id} changes ${JSON.stringify(event.data?.changes)}`;
