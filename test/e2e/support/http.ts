/** Every e2e HTTP request goes through `e2eFetch`, so credentials get added in one place. */
export function e2eFetch(baseUrl: string, path: string, init?: RequestInit): Promise<Response> {
  return fetch(new URL(path, baseUrl), init);
}
