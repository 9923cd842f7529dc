// The client benchmark's floor, in a plain Node process: what any verifying pull has to do at
// least — GET the current manifest, then every part from its pinned URL one after the other,
// writing the bytes to a file and hashing them once (SHA-256). No per-part checks, no retries.
// Usage: node pull-floor.mjs <base-url> <out-file> <api-key>
// Prints {seconds (whole process), max_rss_bytes, bytes} as JSON.
import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { peakRssBytes } from "./vm-hwm.mjs";

const [baseUrl, out, key] = process.argv.slice(2);
const headers = { Authorization: `Bearer ${key}` };
const get = async (path) => {
  const response = await fetch(new URL(path, baseUrl), { headers });
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
  return response;
};
const manifest = await (await get("/v1/releases/current")).json();
const hash = createHash("sha256");
const file = await open(out, "w");
let bytes = 0;
for (const part of manifest.parts) {
  for await (const chunk of (await get(`/v1/releases/${manifest.release_id}/parts/${part.index}`)).body) {
    hash.update(chunk);
    await file.write(chunk);
    bytes += chunk.length;
  }
}
await file.close();
if (`sha256:${hash.digest("hex")}` !== manifest.sha256 || bytes !== manifest.bytes)
  throw new Error("the floor's download does not match the manifest");
process.stdout.write(
  `${JSON.stringify({ seconds: performance.now() / 1000, max_rss_bytes: peakRssBytes(), bytes })}\n`,
);
