/**
 * Resolves a Client ID Metadata Document `client_id` to the client record the library reads
 * (`client:<url>` in OAUTH_KV, the key of every client), fetching the document when the stored
 * record is missing or stale. The library's own CIMD support (1.2.3) is off: it follows redirects,
 * takes only https (so no local document), checks no address before it fetches (it relies on
 * `global_fetch_strictly_public` alone) and answers a failure at the token endpoint as "Client not
 * found"; this module fetches under the outbound address rules and says precisely what is wrong.
 *
 * Cache (CIMD §5.2, RFC 9111): a record is fresh for the document's `max-age`, at most a day; a
 * document that says `no-store`, `no-cache` or nothing is fetched again at each authorization. The
 * record outlives its freshness by 10 minutes, so a sign-in and its code exchange use the document
 * the customer saw; the token endpoint fetches it again for a refresh once the record is gone. So
 * each record is at most 5 KB of document and lives at most a day and 10 minutes, and a URL with no
 * record is fetched only within a deployment budget (1000, then 1000 a day, a GCRA in the
 * SubjectGuard `client_documents`): at most about 2000 records exist at once, and an anonymous
 * caller cannot make this worker fetch URLs without bound.
 */
import { workerEnv } from "../../../env";
import type { RatePolicy } from "../../../limits/gcra";
import { retryAfterSeconds } from "../../../limits/headers";
import { documentUrlProblems, isMetadataDocumentClientId } from "./document-url";
import { clientOfDocument, type DocumentClient, documentProblems } from "./document-client";
import { fetchDocument } from "./fetch-document";

const MAX_FRESH_SECONDS = 24 * 3600;
const IN_USE_SECONDS = 600;

const NEW_DOCUMENTS_PER_DEPLOYMENT: RatePolicy = { rate: 1000 / 86400, burst: 1000 };
export const NEW_DOCUMENTS_SUBJECT = "client_documents";

export type Resolution = { client: DocumentClient } | { problems: string[] };

export async function resolveDocumentClient(
  env: Env,
  clientId: string,
  options: { allowLoopback: boolean; reuseStale?: boolean },
): Promise<Resolution> {
  const urlProblems = documentUrlProblems(clientId, options);
  if (urlProblems.length > 0) return { problems: urlProblems.map((problem) => `the client_id URL ${problem}`) };
  const now = Math.floor(Date.now() / 1000);
  const kv = env.OAUTH_KV;
  const stored = await kv.get<DocumentClient>(`client:${clientId}`, "json");
  if (stored && (options.reuseStale || stored.metadataFreshUntil > now)) return { client: stored };
  const wait = stored ? 0 : await newDocumentWait(env);
  if (wait > 0)
    return {
      problems: [
        `this server fetched too many new client metadata documents (at most 1000, then 1000 a day); retry after ${wait} s`,
      ],
    };
  const fetched = await fetchDocument(clientId);
  if ("problem" in fetched) return { problems: [`the document ${fetched.problem}`] };
  const problems = documentProblems(clientId, fetched.document);
  if (problems.length > 0) return { problems: problems.map((problem) => `the document: ${problem}`) };
  const freshFor = Math.min(fetched.maxAgeSeconds, MAX_FRESH_SECONDS);
  const client = clientOfDocument(fetched.document as Record<string, unknown>, now + freshFor);
  await kv.put(`client:${clientId}`, JSON.stringify(client), { expirationTtl: freshFor + IN_USE_SECONDS });
  return { client };
}

/**
 * Why a token request's `client_id` document cannot be used, or null (also for every other client).
 * A stored record, even stale, is used: the customer approved the document it holds.
 */
export async function tokenClientProblems(env: Env, form: URLSearchParams): Promise<string[] | null> {
  const clientId = form.get("client_id");
  if (form.getAll("client_id").length !== 1 || !clientId || !isMetadataDocumentClientId(clientId)) return null;
  const resolved = await resolveDocumentClient(env, clientId, { ...localTargets(env), reuseStale: true });
  return "problems" in resolved ? resolved.problems : null;
}

/** Local development (`npm start`, tests) also fetches documents from http://127.0.0.1, as webhooks. */
export const localTargets = (env: Env) => ({ allowLoopback: workerEnv(env).WEBHOOK_LOCAL_TARGETS === "loopback" });

/** Seconds until the deployment's budget of new documents admits one more; 0 when it does now. */
async function newDocumentWait(env: Env): Promise<number> {
  const reply = await env.SUBJECT_GUARDS.getByName(NEW_DOCUMENTS_SUBJECT).acquire({
    want: 1,
    finished: [],
    policy: NEW_DOCUMENTS_PER_DEPLOYMENT,
    direct: true,
  });
  return reply.verdict === "limited" ? retryAfterSeconds(reply.retryAfterMs) : 0;
}
