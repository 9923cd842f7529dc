/**
 * A fake of the Cloudflare REST API (https://api.cloudflare.com/client/v4) on 127.0.0.1.
 *
 * Cloudflare is a remote SaaS that cannot run locally, so this fake stands in for it: wrangler and
 * `npm run deploy` reach it through CLOUDFLARE_API_BASE_URL, the variable wrangler reads for its API
 * base. It answers the documented endpoints that deploying uses, in the documented envelope
 * `{success, errors, messages, result}`, keeps their state (KV namespaces, R2 buckets, workers,
 * versions, secrets, static assets, D1 databases), records every call, and refuses a call whose permission the
 * token lacks the way the API does: 403 with error code 10000. What it does not know it answers 404 code 7003, as
 * the API does for an unknown route, so a new call shows up as a failure instead of passing unseen.
 */
import { expectDefined } from "../../../src/common/expect";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { FakeAccount } from "./fake-account";
import type { Reply } from "./fake-reply";

export const FAKE_TOKEN = "fake-token-for-tests";
export const FAKE_ACCOUNT_ID = "f0ca1ef1a2b3c4d5e6f708192a3b4c5d";

export interface ApiCall {
  method: string;
  /** The path below /client/v4, without the query. */
  path: string;
  status: number;
  /** A POST that changed nothing (a D1 query that only read). */
  readOnly?: boolean;
}

export class FakeCloudflare {
  readonly calls: ApiCall[] = [];
  readonly account = new FakeAccount(FAKE_ACCOUNT_ID);

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<FakeCloudflare> {
    let fake: FakeCloudflare | undefined;
    const server = createServer(
      (req, res) => void expectDefined(fake, "the fake, made before it listens").handle(req, res),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    fake = new FakeCloudflare(server, `http://127.0.0.1:${port}/client/v4`);
    return fake;
  }

  /** What wrangler and the deploy script need in their environment to talk to this fake. */
  environment(): Record<string, string> {
    return {
      CLOUDFLARE_API_BASE_URL: this.baseUrl,
      CLOUDFLARE_API_TOKEN: FAKE_TOKEN,
      CLOUDFLARE_ACCOUNT_ID: FAKE_ACCOUNT_ID,
    };
  }

  /** Calls that changed something (anything but GET, and but a D1 query that only read). */
  writes(): ApiCall[] {
    return this.calls.filter((call) => call.method !== "GET" && call.status < 400 && !call.readOnly);
  }

  async close(): Promise<void> {
    await this.account.dispose();
    await new Promise((resolve) => this.server.close(resolve));
    this.server.closeAllConnections();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    const path = url.pathname.replace(/^\/client\/v4/, "");
    let reply: Reply;
    try {
      const authorized =
        req.headers.authorization === `Bearer ${FAKE_TOKEN}` ||
        this.account.assets.acceptsUpload(path, req.headers.authorization);
      reply = authorized
        ? await this.account.route(req.method ?? "GET", path, url, await toRequest(req, url))
        : invalidToken();
    } catch (error) {
      reply = {
        status: 500,
        errors: [{ code: 10013, message: `fake: ${error instanceof Error ? error.stack : String(error)}` }],
      };
    }
    this.calls.push({
      method: req.method ?? "GET",
      path,
      status: reply.status,
      ...(reply.readOnly ? { readOnly: true } : {}),
    });
    const success = reply.status < 400;
    res.writeHead(reply.status, { "Content-Type": "application/json" });
    res.end(
      JSON.stringify({
        success,
        errors: reply.errors ?? [],
        messages: [],
        result: success ? (reply.result ?? null) : null,
        ...(reply.resultInfo ? { result_info: reply.resultInfo } : {}),
      }),
    );
  }
}

/** The API's answer to an unknown or revoked token. */
function invalidToken(): Reply {
  return { status: 401, errors: [{ code: 1000, message: "Invalid API Token" }] };
}

async function toRequest(req: IncomingMessage, url: URL): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  const headers = new Headers(
    Object.entries(req.headers).flatMap(([name, value]) => (typeof value === "string" ? [[name, value]] : [])) as [
      string,
      string,
    ][],
  );
  return new Request(url, { method: req.method, headers, body });
}
