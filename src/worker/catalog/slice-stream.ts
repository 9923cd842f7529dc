/**
 * Streams R2 object slices to the client as one body, without buffering or touching the bytes
 * (docs/performance.md, "Serve"): each R2 body is piped natively into a FixedLengthStream,
 * one object at a time, so memory stays flat whatever the document's size.
 */
import type { ObjectSlice } from "./representation";

export class MissingObject extends Error {}

export async function streamSlices(
  bucket: R2Bucket,
  slices: ObjectSlice[],
  ctx: { waitUntil(promise: Promise<unknown>): void },
): Promise<ReadableStream> {
  const [first, ...rest] = slices;
  // The first object is fetched before the response starts, so a missing one is still an error status.
  if (!first) throw new Error("streamSlices needs at least one slice");
  const firstBody = await getSlice(bucket, first);
  if (rest.length === 0) return firstBody;

  const total = slices.reduce((sum, slice) => sum + slice.length, 0);
  const { readable, writable } = new FixedLengthStream(total);
  ctx.waitUntil(
    (async () => {
      try {
        await firstBody.pipeTo(writable, { preventClose: true });
        for (const slice of rest) await (await getSlice(bucket, slice)).pipeTo(writable, { preventClose: true });
        await writable.close();
      } catch (error) {
        // The status line is gone already: all that is left is to cut the body short, which the
        // client detects through Content-Length.
        console.error(JSON.stringify({ level: "error", message: `catalog stream aborted: ${String(error)}` }));
        await writable.abort(error).catch(() => {});
      }
    })(),
  );
  return readable;
}

async function getSlice(bucket: R2Bucket, slice: ObjectSlice): Promise<ReadableStream> {
  const object = await bucket.get(slice.key, { range: { offset: slice.offset, length: slice.length } });
  if (!object) throw new MissingObject(`R2 object ${slice.key} is missing`);
  return object.body;
}
