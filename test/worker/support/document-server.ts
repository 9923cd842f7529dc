/**
 * The tests' side of the metadata document server (document-server.global-setup.ts): publish a
 * Client ID Metadata Document on loopback, count its fetches.
 */
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    documentServer: string;
  }
}

export interface Published {
  body: string;
  status?: number;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** A fresh document URL: the `client_id` of a metadata document client. */
export const documentUrl = (label: string) => `${inject("documentServer")}/doc/${label}-${crypto.randomUUID()}`;

export async function publish(url: string, published: Published): Promise<void> {
  const res = await fetch(url, { method: "PUT", body: JSON.stringify(published) });
  if (res.status !== 204) throw new Error(`publishing ${url}: HTTP ${res.status}`);
}

/** Publishes `document` as JSON with `headers` (such as Cache-Control). */
export const publishJson = (url: string, document: unknown, headers: Record<string, string> = {}) =>
  publish(url, { body: JSON.stringify(document), headers: { "content-type": "application/json", ...headers } });

export async function fetchCount(url: string): Promise<number> {
  return (await fetch(url.replace("/doc/", "/hits/"))).json();
}
