/** Byte arrays joined into one, in order: the one copy of this loop for the worker and the Node side. */
export function concatBytes(
  chunks: readonly Uint8Array[],
  size = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0),
): Uint8Array {
  const joined = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.byteLength;
  }
  return joined;
}
