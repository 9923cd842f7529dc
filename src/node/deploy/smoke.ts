/**
 * The smoke test of a deployed worker, over HTTP like any client: `/openapi.json` answers, an
 * unauthenticated `/v1/catalog` is a 401 problem, and (when asked, with the deployment's
 * OPERATOR_SECRET) a key made through the operator API reads the current release with `HEAD
 * /v1/catalog`. That key belongs to a smoke-test account and is revoked at the end.
 */
import { OperatorClient, OperatorRefusal } from "../operator/operator-client";

export const SMOKE_ACCOUNT_EMAIL = "deploy-smoke@readiness-catalog.invalid";

export interface SmokeOptions {
  url: string;
  /** The keyed check runs only with the secret (and only when this deploy changed something). */
  operatorSecret?: string;
  /** A new worker (or workers.dev route) can take a moment to answer everywhere. */
  liveWithinMs?: number;
  log: (line: string) => void;
}

/** The problems found; none means the deployment answers as it should. */
export async function smokeTest(options: SmokeOptions): Promise<string[]> {
  const openapi = await waitUntilLive(options.url, options.liveWithinMs ?? 90_000);
  if (typeof openapi === "string") return [openapi];
  options.log(`smoke: GET /openapi.json → 200 (OpenAPI ${openapi.openapi})`);

  const anonymous = await fetch(new URL("/v1/catalog", options.url));
  const problem = (await anonymous.json().catch(() => ({}))) as { code?: string };
  const type = anonymous.headers.get("Content-Type");
  if (anonymous.status !== 401 || type !== "application/problem+json" || problem.code !== "unauthenticated") {
    return [
      `GET /v1/catalog without credentials answered ${anonymous.status} ${type} ${problem.code ?? ""}; expected 401 application/problem+json unauthenticated`,
    ];
  }
  options.log("smoke: GET /v1/catalog without credentials → 401 problem+json (unauthenticated)");
  if (!options.operatorSecret) return [];
  try {
    return await keyedCheck(options.url, options.operatorSecret, options.log);
  } catch (error) {
    if (!(error instanceof OperatorRefusal)) throw error;
    const fix =
      error.status === 401
        ? ": the worker's OPERATOR_SECRET is not the one kept here (replace both with `npm run deploy -- --rotate-secret OPERATOR_SECRET`)"
        : "";
    return [`the operator API refused the keyed check (${error.status} ${error.code}: ${error.detail})${fix}`];
  }
}

async function waitUntilLive(url: string, withinMs: number): Promise<{ openapi: string } | string> {
  const deadline = Date.now() + withinMs;
  let last = "no answer";
  for (;;) {
    try {
      const response = await fetch(new URL("/openapi.json", url), { signal: AbortSignal.timeout(10_000) });
      const body = (await response.json().catch(() => undefined)) as { openapi?: string } | undefined;
      if (response.status === 200 && body?.openapi?.startsWith("3.1")) return { openapi: body.openapi };
      last = `${response.status}${body?.openapi ? ` OpenAPI ${body.openapi}` : ", not an OpenAPI 3.1 document"}`;
    } catch (error) {
      last =
        error instanceof Error ? `${error.message}${error.cause ? ` (${String(error.cause)})` : ""}` : String(error);
    }
    if (Date.now() >= deadline)
      return `GET ${new URL("/openapi.json", url)} did not answer 200 with OpenAPI 3.1 within ${withinMs / 1000} s (last: ${last})`;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

async function keyedCheck(url: string, operatorSecret: string, log: (line: string) => void): Promise<string[]> {
  const operator = new OperatorClient(url, operatorSecret);
  const account = await smokeAccount(operator);
  for (const key of await operator.listKeys(account)) if (key.status === "active") await operator.revokeKey(key.id);
  const key = await operator.createKey(account, { name: "npm run deploy smoke test", scopes: ["read:catalog"] });
  try {
    const auth = { Authorization: `Bearer ${key.secret}` };
    const current = await fetch(new URL("/v1/releases/current", url), { headers: auth });
    const manifest = (await current.json().catch(() => ({}))) as { release_id?: string; code?: string };
    if (current.status === 503 && manifest.code === "catalog_unavailable") {
      log("smoke: no release is current yet, so the keyed HEAD /v1/catalog waits for the first publish");
      return [];
    }
    const head = await fetch(new URL("/v1/catalog", url), { method: "HEAD", headers: auth });
    if (current.status !== 200 || head.status !== 200 || head.headers.get("Catalog-Release") !== manifest.release_id) {
      return [
        `with an operator-made key, GET /v1/releases/current answered ${current.status} and HEAD /v1/catalog ${head.status} (Catalog-Release ${head.headers.get("Catalog-Release")}); expected 200 and 200 for ${manifest.release_id}`,
      ];
    }
    log(`smoke: HEAD /v1/catalog with an operator-made key → 200 (${manifest.release_id})`);
    return [];
  } finally {
    await operator.revokeKey(key.id);
  }
}

/** The smoke-test account (a customer with no other use), made on the first keyed check. */
async function smokeAccount(operator: OperatorClient): Promise<string> {
  const existing = (await operator.listAccounts()).find((account) => account.email === SMOKE_ACCOUNT_EMAIL);
  if (existing) return existing.id;
  const password = crypto.randomUUID() + crypto.randomUUID(); // never used: the account only holds the smoke key
  return (await operator.createAccount({ email: SMOKE_ACCOUNT_EMAIL, password, name: "npm run deploy smoke test" })).id;
}
