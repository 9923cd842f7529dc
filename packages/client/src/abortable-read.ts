/**
 * One read of a response body that ends when the request's signal does. Node's fetch (undici)
 * stops pulling a body when its request is aborted and cannot cancel a stream a reader holds, so a
 * read made after the abort can stay pending for ever (seen after the last byte, when the stream
 * had not yet been told its end): the signal is checked before every read and raced against it.
 */
export async function readChunk(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  signal: AbortSignal | undefined,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  if (!signal) return reader.read();
  signal.throwIfAborted();
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([reader.read(), aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
