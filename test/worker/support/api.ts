/**
 * Every worker-test request goes through `apiFetch` (or `api`, its path-based form), so that what
 * every request must carry (e.g. an API key once the catalog requires one) is added in this one place.
 */
import { exports } from "cloudflare:workers";

export const API_ORIGIN = "https://api.test";

/** A fetch-compatible function that sends the request to the worker under test. */
export function apiFetch(request: Request): Promise<Response> {
  return exports.default.fetch(request);
}

export function api(path: string, init?: RequestInit): Promise<Response> {
  return apiFetch(new Request(new URL(path, API_ORIGIN), init));
}
