/**
 * Streams R2 object slices to the client as one body, without buffering or touching the bytes
 * (docs/performance.md, "Serve"): each R2 body is piped natively into a FixedLengthStream,
 * one object at a time, so memory stays flat whatever the document's size.
 */
import type { ObjectSlice } from "./representation";
import { retryTransient } from "../../common/transient";

export class MissingObject extends Error {}

export async function streamSlices(
  bucket: R2Bucket,
  slices: ObjectSlice[],
  ctx: { waitUntil(promise: Promise<unknown>): void },
  /** The request's signal: aborted when the client goes away (compatibility flag enable_request_signal). */
  clientGone: AbortSignal,
): Promise<ReadableStream> {
  const [first, ...rest] = slices;
  // The first object is fetched before the response starts, so a missing one is still an error status.
  if (!first) throw new Error("streamSlices needs at least one slice");
  const firstBody = await getSlice(bucket, first);
  if (rest.length === 0) return firstBody;

  const total = slices.reduce((sum, slice) => sum + slice.length, 0);
  const { readable, writable } = new FixedLengthStream(total);
  const pipe = { preventClose: true };
  ctx.waitUntil(
    (async () => {
      let sent = 0;
      try {
        await firstBody.pipeTo(writable, pipe);
        sent += first.length;
        for (const slice of rest) {
          await (await getSlice(bucket, slice)).pipeTo(writable, pipe);
          sent += slice.length;
        }
        await writable.close();
      } catch (error) {
        logAbort(error, clientGone.aborted, { bytes_sent: sent, bytes: total });
        await writable.abort(error).catch(() => {});
      }
    })(),
  );
  return readable;
}

/**
 * A client closing a connection it no longer needs (aria2c does, for every split download) is
 * normal: debug, with how far the body got (to the last whole object). A storage failure is an
 * error; either way the body is cut short, which the client detects through Content-Length.
 */
function logAbort(error: unknown, byClient: boolean, progress: { bytes_sent: number; bytes: number }): void {
  if (byClient)
    console.debug(JSON.stringify({ level: "debug", message: "catalog stream closed by the client", ...progress }));
  else
    console.error(JSON.stringify({ level: "error", message: `catalog stream aborted: ${String(error)}`, ...progress }));
}

async function getSlice(bucket: R2Bucket, slice: ObjectSlice): Promise<ReadableStream> {
  const range = { offset: slice.offset, length: slice.length };
  const object = await retryTransient(() => bucket.get(slice.key, { range }));
  if (!object) throw new MissingObject(`R2 object ${slice.key} is missing`);
  return object.body;
}
