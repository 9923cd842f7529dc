/**
 * From a well-formed API key to the principal it acts for: one KV read of the index
 * (`apikey:<SHA-256>` → record), remembered by the isolate for a minute (key-record-cache.ts).
 * Checks that need no storage come first: a key of the other mode is refused on its prefix, before
 * the read. After the read, the mode is taken from the record (never
 * from the prefix alone) and checked again.
 */
import { readStoredJson } from "../http/stored-json";
import { hashApiKey, type KeyMode } from "../../common/auth/api-key";
import { KeyRecord, keyIndexName } from "./key-record";
import { recentKeyRecord, rememberKeyRecord } from "./key-record-cache";
import type { Principal } from "./principal";

export type KeyLookup =
  | { ok: true; principal: Principal }
  | { ok: false; code: "invalid_api_key" | "wrong_deployment" | "revoked_api_key"; detail: string };

const DEPLOYMENT_OF: Record<KeyMode, string> = { live: "production", test: "sandbox" };

export function wrongDeploymentDetail(keyMode: KeyMode, deployment: string): string {
  return (
    `A ${keyMode} key (sk_${keyMode}_…) was sent to the ${deployment} deployment, which accepts only ` +
    `${keyMode === "live" ? "test" : "live"} keys. Send this key to the ${DEPLOYMENT_OF[keyMode]} deployment, ` +
    `or use a ${keyMode === "live" ? "test" : "live"} key here.`
  );
}

/** Whether checking this key reads no storage: a key of the other mode, or one this isolate read as active within a minute. */
export async function checkableWithoutStorage(env: Env, secret: string, prefixMode: KeyMode): Promise<boolean> {
  return prefixMode !== env.KEY_MODE || recentKeyRecord(await hashApiKey(secret)) !== undefined;
}

export async function lookUpApiKey(env: Env, secret: string, prefixMode: KeyMode): Promise<KeyLookup> {
  if (prefixMode !== env.KEY_MODE)
    return { ok: false, code: "wrong_deployment", detail: wrongDeploymentDetail(prefixMode, env.DEPLOYMENT) };
  const hash = await hashApiKey(secret);
  const last4 = secret.slice(-4);
  let record = recentKeyRecord(hash);
  if (!record) {
    // A corrupt index record is treated as absent: the key is refused as unknown, never trusted.
    const stored = await readStoredJson(env.AUTH_KV, keyIndexName(hash), KeyRecord, "API key index");
    if (stored === null) {
      return {
        ok: false,
        code: "invalid_api_key",
        detail: `No API key ending in ${last4} exists on the ${env.DEPLOYMENT} deployment. Check that you copied the whole key.`,
      };
    }
    record = stored;
    rememberKeyRecord(hash, record);
  }
  if (record.status === "revoked") {
    return {
      ok: false,
      code: "revoked_api_key",
      detail: `The API key ending in ${last4} (${record.key_id}) was revoked. Use another active key.`,
    };
  }
  if (record.mode !== env.KEY_MODE)
    return { ok: false, code: "wrong_deployment", detail: wrongDeploymentDetail(record.mode, env.DEPLOYMENT) };
  return {
    ok: true,
    principal: {
      kind: "api_key",
      subject: record.key_id,
      accountId: record.account_id,
      mode: record.mode,
      scopes: record.scopes,
      keyId: record.key_id,
      last4: record.last4,
    },
  };
}
