/**
 * Every worker-test request goes through `api()`, so that what every request must carry (e.g. an
 * API key once the catalog requires one) is added in this one place.
 */
import { exports } from "cloudflare:workers";

export const API_ORIGIN = "https://api.test";

export function api(path: string, init?: RequestInit): Promise<Response> {
  return exports.default.fetch(new Request(new URL(path, API_ORIGIN), init));
}
