/**
 * Fetches a Client ID Metadata Document under the rules of every outbound request a client can
 * name: redirects are not followed (the document must live at its own URL, CIMD §3, and a redirect
 * could lead to an internal address), the answer is bounded in size and time, and it must be JSON.
 * The address itself was checked before (document-url.ts), and `global_fetch_strictly_public`
 * refuses private addresses whatever the name resolves to.
 */

/** CIMD §6.5 suggests 5 KB as the upper bound of a document. */
const MAX_DOCUMENT_BYTES = 5 * 1024;
const FETCH_TIMEOUT_MS = 5000;

type FetchedDocument = { document: unknown; maxAgeSeconds: number } | { problem: string };

export async function fetchDocument(url: string): Promise<FetchedDocument> {
  try {
    const response = await fetch(url, {
      headers: { accept: "application/json", "user-agent": "readiness-catalog-oauth" },
      redirect: "manual",
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    const refusal = statusProblem(response);
    if (refusal) {
      await response.body?.cancel();
      return { problem: refusal };
    }
    const text = await boundedText(response);
    if (text === null) return { problem: `is larger than ${MAX_DOCUMENT_BYTES} bytes` };
    return { document: JSON.parse(text), maxAgeSeconds: maxAgeOf(response.headers.get("cache-control")) };
  } catch (error) {
    return { problem: fetchFailure(error) };
  }
}

function statusProblem(response: Response): string | null {
  if (response.status >= 300 && response.status < 400)
    return `answered with a redirect (HTTP ${response.status}); redirects are not followed: serve the document at its client_id URL`;
  return response.status === 200 ? null : `answered HTTP ${response.status}, not 200`;
}

function fetchFailure(error: unknown): string {
  if (error instanceof SyntaxError) return "is not JSON";
  if (error instanceof DOMException && error.name === "TimeoutError")
    return `did not answer within ${FETCH_TIMEOUT_MS / 1000} s`;
  if (error instanceof TypeError && /UTF-8/i.test(error.message)) return "is not UTF-8 text";
  return `could not be fetched (${String(error).slice(0, 200)})`;
}

/** The body as UTF-8 text, or null once it passes the bound (the rest is never read). */
async function boundedText(response: Response): Promise<string | null> {
  if (Number(response.headers.get("content-length") ?? 0) > MAX_DOCUMENT_BYTES) {
    await response.body?.cancel();
    return null;
  }
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
    size += read.value.byteLength;
    if (size > MAX_DOCUMENT_BYTES) {
      await reader?.cancel();
      return null;
    }
    chunks.push(read.value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
}

/** RFC 9111 §5.2.2: how long the answer may be reused; 0 when it must not be (or says nothing). */
function maxAgeOf(cacheControl: string | null): number {
  if (!cacheControl || /(^|,)\s*(no-store|no-cache)\b/i.test(cacheControl)) return 0;
  const maxAge = /(^|,)\s*max-age\s*=\s*"?(\d+)/i.exec(cacheControl);
  return maxAge ? Number(maxAge[2]) : 0;
}
