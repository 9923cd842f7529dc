/**
 * Standard Webhooks signatures (standardwebhooks.com, "Signature scheme"): HMAC-SHA256 over
 * `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64 bytes after `whsec_`, sent as
 * `v1,<base64>`; several space-separated while a rotated-away secret still signs.
 */
export const SECRET_PREFIX = "whsec_";
/** The specification asks for 24 to 64 random bytes. */
const SECRET_BYTES = 32;

export function newSigningSecret(): string {
  return SECRET_PREFIX + crypto.getRandomValues(new Uint8Array(SECRET_BYTES)).toBase64();
}

async function signature(secret: string, signed: string): Promise<string> {
  const keyBytes = Uint8Array.fromBase64(secret.slice(SECRET_PREFIX.length));
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(signed));
  return `v1,${new Uint8Array(mac).toBase64()}`;
}

/** The `webhook-signature` header value: one `v1,…` per secret that signs. */
export async function signatureHeader(
  secrets: readonly string[],
  message: { id: string; timestamp: number; body: string },
): Promise<string> {
  const signed = `${message.id}.${message.timestamp}.${message.body}`;
  return (await Promise.all(secrets.map((secret) => signature(secret, signed)))).join(" ");
}
