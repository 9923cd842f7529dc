/**
 * The few Cloudflare REST API calls deploying makes itself (wrangler makes the upload), with the
 * API's envelope `{success, errors, messages, result}` unwrapped. The base URL is wrangler's:
 * CLOUDFLARE_API_BASE_URL when set (the tests point it at a local fake), else api.cloudflare.com
 * (credentials.ts reads it).
 * Every call names the API token permission it needs, so a refusal can say which one is missing.
 */
export const DEFAULT_API_BASE_URL = "https://api.cloudflare.com/client/v4";

/** Cloudflare's answer to a call the token may not make: HTTP 403 with error code 10000. */
const AUTHENTICATION_ERROR = 10000;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** The token is valid but lacks `permission`: the message names it and how to add it. */
export class MissingPermission extends Error {
  constructor(
    readonly permission: string,
    action: string,
  ) {
    super(
      `the Cloudflare API token lacks the permission "${permission}" (needed to ${action}). ` +
        "Add it to the token (dashboard: My Profile → API Tokens → Edit), or log in with `npx wrangler login` instead.",
    );
  }
}

export interface Call {
  /** e.g. "Workers KV Storage: Edit", as the dashboard's token editor names it. */
  permission: string;
  /** What the call is for, completing "needed to …". */
  action: string;
  method?: string;
  body?: unknown;
  query?: Record<string, string>;
}

export class CloudflareApi {
  constructor(
    private readonly token: string,
    readonly accountId: string,
    readonly baseUrl: string,
  ) {}

  /** The call's `result`; throws MissingPermission on a 403, ApiError on any other refusal. */
  async call<T>(path: string, call: Call): Promise<T> {
    return (await this.envelope<T>(path, call)).result;
  }

  /** Every page of a paged list (`page`/`per_page`, `result_info.total_pages`). */
  async pages<T>(path: string, call: Call): Promise<T[]> {
    const all: T[] = [];
    for (let page = 1; ; page++) {
      const { result, result_info } = await this.envelope<T[]>(path, {
        ...call,
        query: { ...call.query, page: String(page), per_page: "100" },
      });
      all.push(...result);
      if (!result_info || page >= result_info.total_pages || result.length === 0) return all;
    }
  }

  /** A path below /accounts/<this account>. */
  account(path: string): string {
    return `/accounts/${this.accountId}${path}`;
  }

  private async envelope<T>(path: string, call: Call): Promise<{ result: T; result_info?: { total_pages: number } }> {
    const url = new URL(this.baseUrl.replace(/\/$/, "") + path);
    for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value);
    const response = await fetch(url, {
      method: call.method ?? "GET",
      headers: {
        Authorization: `Bearer ${this.token}`,
        ...(call.body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
    });
    const text = await response.text();
    const body = parse(text) as
      | {
          success?: boolean;
          errors?: { code: number; message: string }[];
          result: T;
          result_info?: { total_pages: number };
        }
      | undefined;
    if (response.ok && body?.success) return body;
    const error = body?.errors?.[0];
    // Other 403 codes say something else (e.g. 10042: R2 is not enabled on the account): pass them on.
    if (error?.code === AUTHENTICATION_ERROR || (response.status === 403 && !error))
      throw new MissingPermission(call.permission, call.action);
    throw new ApiError(
      response.status,
      error?.code,
      `Cloudflare API ${call.method ?? "GET"} ${path} → ${response.status}${error ? ` ${error.message} [code ${error.code}]` : `: ${text.slice(0, 200)}`} (while trying to ${call.action})`,
    );
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
