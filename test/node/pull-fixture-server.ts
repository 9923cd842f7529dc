/**
 * A stand-in catalog server for the client's failure paths: it serves a real build the way the
 * worker does, except for the one thing a test asks it to get wrong.
 */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import { readFileSync } from "node:fs";
import path from "node:path";
import { contentDigestOf } from "../../src/common/catalog/digest";
import type { Manifest } from "../../src/common/catalog/manifest";
import { expectDefined } from "../../src/common/expect";
import { profileFixture, type ProfileFault } from "./profile-fixture-routes";

export type Fault =
  | "none"
  | "flipped-byte"
  | "wrong-content-digest"
  | "wrong-link"
  | "forged-artifact"
  | "unauthorized"
  | "busy-once"
  // The manifest's own parts match what is served, but the document as a whole does not verify.
  | "wrong-document-sha256"
  | "wrong-profile-count"
  | "no-closing-brace"
  | "gap-in-layout"
  // Part 3 answers 404, a final failure: the download stops there.
  | "lost-part-3"
  | ProfileFault;

const sha256 = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/** The parts as served and the manifest as served, for a fault that changes either. */
function served(releaseDir: string, fault: Fault): { manifest: Manifest; parts: Buffer[] } {
  const manifest = JSON.parse(readFileSync(path.join(releaseDir, "manifest.json"), "utf8")) as Manifest;
  const parts = manifest.parts.map((part) => readFileSync(path.join(releaseDir, "parts", String(part.index))));
  const last = parts.length - 1;
  switch (fault) {
    case "flipped-byte": {
      const flipped = expectDefined(parts[2], "part 2");
      flipped[10] = expectDefined(flipped[10], "byte 10 of part 2") ^ 1;
      return { manifest, parts };
    }
    case "forged-artifact":
      return { manifest: { ...manifest, artifact_sha256: `sha256:${"0".repeat(64)}` }, parts };
    case "wrong-document-sha256":
      return { manifest: { ...manifest, sha256: `sha256:${"1".repeat(64)}` }, parts };
    case "wrong-profile-count":
      return { manifest: { ...manifest, profile_count: manifest.profile_count + 1 }, parts };
    case "gap-in-layout":
      return {
        manifest: {
          ...manifest,
          parts: manifest.parts.map((part, i) => (i === 1 ? { ...part, offset: part.offset + 1 } : part)),
        },
        parts,
      };
    case "no-closing-brace": {
      const lastPart = expectDefined(parts[last], "the last part");
      lastPart[lastPart.length - 1] = 0x20;
      const whole = Buffer.concat(parts);
      const reparted = manifest.parts.map((part, i) => (i === last ? { ...part, sha256: sha256(lastPart) } : part));
      return { manifest: { ...manifest, sha256: sha256(whole), parts: reparted }, parts };
    }
    default:
      return { manifest, parts };
  }
}

export async function fixtureServer(
  releaseDir: string,
  fault: Fault,
): Promise<{ url: string; requests: string[]; authorizations: string[]; close(): Promise<void> }> {
  const { manifest, parts } = served(releaseDir, fault);
  const profiles = profileFixture(manifest, parts, fault);
  const requests: string[] = [];
  /** Each request's Authorization header ("" when it had none). */
  const authorizations: string[] = [];
  let busy = fault === "busy-once";
  const server: Server = createServer((req, res) => {
    const url = expectDefined(req.url, "the request's URL");
    requests.push(url);
    authorizations.push(req.headers.authorization ?? "");
    if (fault === "unauthorized") {
      res.writeHead(401, {
        "Content-Type": "application/problem+json",
        "WWW-Authenticate": 'Bearer error="invalid_token"',
        "Request-Id": "req_fixture",
      });
      return res.end(JSON.stringify({ code: "invalid_api_key", detail: "The API key is not valid." }));
    }
    if (busy) {
      busy = false;
      res.writeHead(503, { "Content-Type": "application/problem+json", "Retry-After": "0" });
      return res.end(JSON.stringify({ code: "catalog_unavailable", detail: "Retry later." }));
    }
    if (url === "/v1/releases/current") {
      res.writeHead(200, { "Content-Type": "application/json", "Catalog-Release": manifest.release_id });
      return res.end(JSON.stringify({ ...manifest, published_at: "2026-01-01T00:00:00.000Z" }));
    }
    if (profiles.serve(url, res)) return;
    const match = /^\/v1\/releases\/([^/]+)\/parts\/(\d+)$/.exec(url);
    const part = match && match[1] === manifest.release_id ? manifest.parts[Number(match[2])] : undefined;
    if (!part || (fault === "lost-part-3" && part.index === 3)) return res.writeHead(404).end();
    const bytes = expectDefined(parts[part.index], `part ${part.index}`);
    const headers: Record<string, string> = {
      "Content-Type": "application/octet-stream",
      "Content-Length": String(bytes.length),
      "Catalog-Release": manifest.release_id,
      "Catalog-Part": `${part.index}/${manifest.parts.length}`,
      "Content-Digest": contentDigestOf(
        fault === "wrong-content-digest" && part.index === 1 ? manifest.sha256 : part.sha256,
      ),
    };
    if (part.index + 1 < manifest.parts.length) {
      const next = fault === "wrong-link" && part.index === 0 ? 2 : part.index + 1;
      headers.Link = `</v1/releases/${manifest.release_id}/parts/${next}>; rel="next"`;
    }
    res.writeHead(200, headers).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    authorizations,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
