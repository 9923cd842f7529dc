/**
 * Customer passwords: PBKDF2-SHA256 through Web Crypto (RFC 8018 §5.2), a random 16-byte salt per
 * account, and 100,000 iterations: the most Cloudflare's runtime allows (local workerd no longer
 * enforces that cap, so verification refuses records above it itself). Stored as one string,
 * `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>`, so the cost can be raised later per record.
 * Verification compares in constant time. Repeated failures lock the email for a growing time
 * (`lockoutMsAfter`, applied by sign-in-attempts.ts).
 */

export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;
const encoder = new TextEncoder();

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await pbkdf2(password, salt, PBKDF2_ITERATIONS);
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${toBase64(salt)}$${toBase64(hash)}`;
}

/** False for a wrong password and for a record this code cannot read. */
export async function verifyPassword(password: string, record: string): Promise<boolean> {
  const [algorithm, iterations, salt, expected] = record.split("$");
  const rounds = Number(iterations);
  if (algorithm !== "pbkdf2-sha256" || !salt || !expected) return false;
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > PBKDF2_ITERATIONS) return false;
  const actual = await pbkdf2(password, fromBase64(salt), rounds);
  return constantTimeEqual(actual, fromBase64(expected));
}

/** A well-formed record no password matches (all-zero hash): checking it costs a real check's work. */
export const DECOY_PASSWORD_RECORD = `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${"A".repeat(22)}==$${"A".repeat(43)}=`;

/** After 5 consecutive failures: locked 1 s, doubling per further failure, at most 15 minutes. */
export function lockoutMsAfter(consecutiveFailures: number): number {
  const FREE_ATTEMPTS = 5;
  if (consecutiveFailures < FREE_ATTEMPTS) return 0;
  return Math.min(1000 * 2 ** (consecutiveFailures - FREE_ATTEMPTS), 15 * 60 * 1000);
}

/**
 * Equality of secrets (strings as UTF-8) in constant time, by workerd's crypto.subtle.timingSafeEqual.
 * Unequal lengths return at once: every caller compares values of a fixed, public length.
 */
export function constantTimeEqual(a: Uint8Array | string, b: Uint8Array | string): boolean {
  const left = typeof a === "string" ? encoder.encode(a) : a;
  const right = typeof b === "string" ? encoder.encode(b) : b;
  return left.byteLength === right.byteLength && crypto.subtle.timingSafeEqual(left, right);
}

async function pbkdf2(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const material = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as Uint8Array<ArrayBuffer>, iterations },
    material,
    HASH_BITS,
  );
  return new Uint8Array(bits);
}

const toBase64 = (bytes: Uint8Array) => bytes.toBase64();
const fromBase64 = (text: string) => Uint8Array.fromBase64(text);
