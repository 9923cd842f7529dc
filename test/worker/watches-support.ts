/** A caller of the watches API with a fresh account and key (default scopes unless given). */
import type { Scope } from "../../src/common/auth/scopes";
import { accountWithKey, bearer, call } from "./auth-fixtures";

export async function watchCaller(options: { scopes?: Scope[] } = {}) {
  const { secret } = await accountWithKey(options);
  const as = (path: string, init: RequestInit = {}) =>
    call(path, { ...init, headers: { ...bearer(secret), ...(init.headers as Record<string, string>) } });
  const post = (body: unknown) =>
    as("/v1/watches", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const create = async (body: unknown) => {
    const res = await post(body);
    if (res.status !== 201) throw new Error(`POST /v1/watches: ${res.status} ${await res.text()}`);
    return res.json<{ id: string; name: string; query: string | null; profiles: unknown[] | null }>();
  };
  return { secret, as, post, create };
}
