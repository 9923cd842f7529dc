/**
 * The whole-document part of the serve benchmark: GET /v1/catalog a few times over fresh
 * connections, timing the first byte and the whole body; around the first GET, the RSS of the
 * workerd process that runs the worker (streaming must not grow it with the document's size).
 */
import type { Manifest } from "../src/common/catalog/manifest";
import type { DevServer } from "../src/node/local/wrangler-dev";
import { rssBytes, workerPid } from "./bench-servers";
import { timedDownload } from "./download";
import { median } from "./measure";

export interface DocumentFigures {
  profiles: number;
  bytes: number;
  ttfbMs: number;
  bytesPerSecond: number;
  rssBefore: number;
  rssPeak: number;
  rssAfter: number;
}

const RSS_SAMPLE_MS = 10;

export async function measureDocument(
  server: DevServer,
  manifest: Manifest,
  headers: Record<string, string>,
  downloads: number,
): Promise<DocumentFigures> {
  const url = `${server.url}/v1/catalog`;
  // Warm the isolate and its manifest cache without a body, so "before" is the steady state.
  const head = await fetch(url, { method: "HEAD", headers });
  if (head.headers.get("Catalog-Release") !== manifest.release_id) {
    throw new Error(
      `/v1/catalog serves ${head.headers.get("Catalog-Release")} (${head.status}), expected ${manifest.release_id}`,
    );
  }
  // RSS around the first download: before, peak while streaming (sampled), after.
  const pid = workerPid(server);
  const rssBefore = rssBytes(pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssBytes(pid))), RSS_SAMPLE_MS);
  const runs = [];
  try {
    runs.push(await timedDownload(url, headers));
  } finally {
    clearInterval(sampler);
  }
  const rssAfter = rssBytes(pid);
  for (let run = 1; run < downloads; run++) runs.push(await timedDownload(url, headers));
  return {
    profiles: manifest.profile_count,
    bytes: manifest.bytes,
    ttfbMs: median(runs.map((r) => r.ttfbMs)),
    bytesPerSecond: manifest.bytes / median(runs.map((r) => r.seconds)),
    rssBefore,
    rssPeak: Math.max(rssPeak, rssAfter),
    rssAfter,
  };
}
