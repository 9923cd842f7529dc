/**
 * Catalog answers (document, parts, manifests) go out exactly as stored, never content-coded:
 * their Content-Digest and Repr-Digest come from the manifest (RFC 9530 §2-3), their strong ETag
 * names those bytes (RFC 9110 §8.8.3) and a Range counts them (§14), while the worker neither
 * hashes nor transforms artifact bytes while serving. Compressing them would need a digest, a
 * strong ETag and a Vary per coding (§12.5.5), so no one along the way may compress them:
 * - Cloudflare's edge compresses `application/json` 200s for any client that accepts gzip or br,
 *   unless the response says `Cache-Control: no-transform` (RFC 9111 §5.2.2.6), which it honours:
 *   https://developers.cloudflare.com/speed/optimization/content/compression/
 *   Every catalog Cache-Control value (representation.ts) carries it.
 * - `wrangler dev`'s local stand-in for that edge (miniflare's entry worker, `ensureAcceptableEncoding`)
 *   ignores `no-transform` and compresses 206s too; it leaves alone a response that already names a
 *   coding other than gzip or br. Naming `identity` is what keeps the local server byte-exact,
 *   at the cost of RFC 9110 §8.4's SHOULD NOT (the name is reserved for Accept-Encoding); clients
 *   read it as "no coding", and the e2e test notices if a newer proxy stops honouring it.
 */

/** Content-Encoding of every catalog answer with a body; clients read it as "no coding". */
export const IDENTITY_CODING = { "Content-Encoding": "identity" } as const;

/** Names the identity coding on an answer's headers: every catalog answer with a body goes through here. */
export function withIdentityCoding(headers: Headers): void {
  for (const [name, value] of Object.entries(IDENTITY_CODING)) headers.set(name, value);
}
