/**
 * Examples of /openapi.json that only the serving deployment can make valid, filled in each time
 * the document is served, so that every "Try it out" of /docs runs as prefilled: the release id
 * examples become the current release's (a made-up id is a 404), and the Idempotency-Key example
 * of POST /v2/orders a fresh UUID (one fixed value would answer every order placed with it with
 * the first one, or 409 for another body).
 */
import { readCurrentPointer, type ManifestKv } from "../../common/catalog/store";
import { EXAMPLE_RELEASE_ID } from "../catalog/params";
import { EXAMPLE_IDEMPOTENCY_KEY } from "../orders/create-order";

/** `text` (the generated document) with the served examples filled in. */
export async function withServedExamples(text: string, kv: ManifestKv): Promise<string> {
  const current = await readCurrentPointer(kv);
  // Before the first publish there is no release to name: the made-up id stays.
  const releaseId = current?.release_id ?? EXAMPLE_RELEASE_ID;
  return text.replaceAll(EXAMPLE_RELEASE_ID, releaseId).replaceAll(EXAMPLE_IDEMPOTENCY_KEY, crypto.randomUUID());
}
