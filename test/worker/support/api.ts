/**
 * Every worker-test request goes through `apiFetch` (or `api`, its path-based form), so that what
 * every request must carry (e.g. an API key once the catalog requires one) is added in this one place.
 */
import { exports } from "cloudflare:workers";
import { sharedTestKey } from "../auth-fixtures";

export const API_ORIGIN = "https://api.test";

/**
 * A fetch-compatible function that sends the request to the worker under test, with a valid live
 * API key (all default scopes, no practical rate limit) unless the request brings its own Authorization.
 */
export async function apiFetch(request: Request): Promise<Response> {
  if (!request.headers.has("Authorization")) {
    request = new Request(request, { headers: new Headers(request.headers) });
    request.headers.set("Authorization", `Bearer ${await sharedTestKey()}`);
  }
  return exports.default.fetch(request);
}

export function api(path: string, init?: RequestInit): Promise<Response> {
  return apiFetch(new Request(new URL(path, API_ORIGIN), init));
}
