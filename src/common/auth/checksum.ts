/**
 * CRC32 (IEEE 802.3, the zlib polynomial) and fixed-width base62, the two halves of an API key's
 * checksum: GitHub's token format appends base62(CRC32(random part)) so that scanners and the
 * worker reject look-alikes offline; and the random base62 of key secrets and ids. Pure and
 * runtime-neutral (Node and workerd).
 */

export const BASE62_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

const CRC32_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC32 of an ASCII string (every character is one byte; callers check the charset first). */
export function crc32(ascii: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < ascii.length; i++) {
    // The index is a byte, and the table has 256 entries: `?? 0` only satisfies the type.
    crc = (CRC32_TABLE[(crc ^ ascii.charCodeAt(i)) & 0xff] ?? 0) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** `value` in base62, left-padded with "0" to `width` characters (62^6 > 2^32, so 6 fits any CRC32). */
export function base62Fixed(value: number, width: number): string {
  let out = "";
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = BASE62_ALPHABET.charAt(rest % 62) + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

/** The 6-character checksum of an API key's 30 random characters. */
export function keyChecksum(randomPart: string): string {
  return base62Fixed(crc32(randomPart), 6);
}

/** Uniform base62 characters by rejection sampling (248 = 4 × 62, so no modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && out.length < length) out += BASE62_ALPHABET[byte % 62];
    }
  }
  return out;
}
