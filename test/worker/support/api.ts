/**
 * Every worker-test request goes through `apiFetch` (or `api`, its path-based form), so that what
 * every request must carry (e.g. an API key once the catalog requires one) is added in this one place.
 */
import { createExecutionContext } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { expectDefined } from "../../../src/common/expect";
import app from "../../../src/worker/index";
import { sharedTestKey } from "../auth-fixtures";

export const API_ORIGIN = "https://api.test";

/**
 * A fetch-compatible function that sends the request to the worker under test, with a valid live
 * API key (all default scopes, no practical rate limit) unless the request brings its own Authorization.
 */
export async function apiFetch(request: Request): Promise<Response> {
  return exports.default.fetch(await withTestKey(request));
}

/** `api()` through the app with other bindings (e.g. a wrapped R2 bucket that records its calls). */
export async function apiWithBindings(bindings: Env, path: string, init?: RequestInit): Promise<Response> {
  return app.fetch(await withTestKey(new Request(new URL(path, API_ORIGIN), init)), bindings, createExecutionContext());
}

async function withTestKey(request: Request): Promise<Request> {
  if (request.headers.has("Authorization")) return request;
  const keyed = new Request(request, { headers: new Headers(request.headers) });
  keyed.headers.set("Authorization", `Bearer ${await sharedTestKey()}`);
  return keyed;
}

export function api(path: string, init?: RequestInit): Promise<Response> {
  return apiFetch(new Request(new URL(path, API_ORIGIN), init));
}

/** The value of the header `name` of `res`; throws naming the header when the response has none. */
export function headerOf(res: Response, name: string): string {
  return expectDefined(res.headers.get(name), `a ${name} header on the ${res.status} response`);
}
