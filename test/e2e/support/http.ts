/** Every e2e HTTP request goes through `e2eFetch`, so credentials get added in one place. */
import { apiKeyFor } from "./api-key";

/** Sends the server's provisioned API key unless the request brings its own Authorization. */
export function e2eFetch(baseUrl: string, path: string, init?: RequestInit): Promise<Response> {
  const headers = new Headers(init?.headers);
  const key = apiKeyFor(baseUrl);
  if (key && !headers.has("Authorization")) headers.set("Authorization", `Bearer ${key}`);
  return fetch(new URL(path, baseUrl), { ...init, headers });
}
