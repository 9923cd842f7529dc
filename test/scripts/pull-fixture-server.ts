/**
 * A stand-in catalog server for catalog:pull's failure paths: it serves a real build the way the
 * worker does, except for the one thing a test asks it to get wrong.
 */
import { createServer, type Server } from "node:http";
import { readFileSync } from "node:fs";
import path from "node:path";
import { contentDigestOf } from "../../src/catalog/digest";
import type { Manifest } from "../../src/catalog/manifest";

export type Fault =
  | "none"
  | "flipped-byte"
  | "wrong-content-digest"
  | "wrong-link"
  | "forged-artifact"
  | "unauthorized"
  | "busy-once";

export async function fixtureServer(releaseDir: string, fault: Fault): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const manifest = JSON.parse(readFileSync(path.join(releaseDir, "manifest.json"), "utf8")) as Manifest;
  const requests: string[] = [];
  let busy = fault === "busy-once";
  const server: Server = createServer((req, res) => {
    requests.push(req.url!);
    if (fault === "unauthorized") {
      res.writeHead(401, { "Content-Type": "application/problem+json", "WWW-Authenticate": 'Bearer error="invalid_token"' });
      return res.end(JSON.stringify({ code: "invalid_api_key", detail: "The API key is not valid." }));
    }
    if (busy) {
      busy = false;
      res.writeHead(503, { "Content-Type": "application/problem+json", "Retry-After": "0" });
      return res.end(JSON.stringify({ code: "catalog_unavailable", detail: "Retry later." }));
    }
    if (req.url === "/v1/releases/current") {
      const served = fault === "forged-artifact" ? { ...manifest, artifact_sha256: `sha256:${"0".repeat(64)}` } : manifest;
      res.writeHead(200, { "Content-Type": "application/json", "Catalog-Release": manifest.release_id });
      return res.end(JSON.stringify({ ...served, published_at: "2026-01-01T00:00:00.000Z" }));
    }
    const match = /^\/v1\/releases\/([^/]+)\/parts\/(\d+)$/.exec(req.url!);
    const part = match && match[1] === manifest.release_id ? manifest.parts[Number(match[2])] : undefined;
    if (!part) return res.writeHead(404).end();
    const bytes = readFileSync(path.join(releaseDir, "parts", String(part.index)));
    if (fault === "flipped-byte" && part.index === 2) bytes[10]! ^= 1;
    const headers: Record<string, string> = {
      "Content-Type": "application/octet-stream",
      "Content-Length": String(bytes.length),
      "Catalog-Release": manifest.release_id,
      "Catalog-Part": `${part.index}/${manifest.parts.length}`,
      "Content-Digest": contentDigestOf(fault === "wrong-content-digest" && part.index === 1 ? manifest.sha256 : part.sha256),
    };
    if (part.index + 1 < manifest.parts.length) {
      const next = fault === "wrong-link" && part.index === 0 ? 2 : part.index + 1;
      headers.Link = `</v1/releases/${manifest.release_id}/parts/${next}>; rel="next"`;
    }
    res.writeHead(200, headers).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
