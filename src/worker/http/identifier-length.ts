/**
 * KV refuses a key longer than 512 bytes of UTF-8 (the worker then answers 500), and every
 * client-sent identifier that names a record (client ids, tokens, codes) becomes part of a key. So
 * each is refused before any storage call when over MAX_IDENTIFIER_BYTES, counted in UTF-8 bytes:
 * 200 characters of `€` are 600 bytes. Ours are far shorter: client ids 16 characters, sealed
 * tokens and codes about 140.
 */
export const MAX_IDENTIFIER_BYTES = 256;

/** Whether a client-sent identifier may be used in a storage key: at most MAX_IDENTIFIER_BYTES of UTF-8. */
export function fitsStorageKey(value: string): boolean {
  // Each UTF-16 unit is at least one byte, so a longer string never fits and is never encoded.
  return value.length <= MAX_IDENTIFIER_BYTES && new TextEncoder().encode(value).length <= MAX_IDENTIFIER_BYTES;
}
