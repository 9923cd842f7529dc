/**
 * Accounts and keys for worker tests, made through the real Durable Objects (no mocks), and a
 * counting view of the bindings that proves which storage a request touched.
 */
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import app from "../../src/worker/index";
import { accountObject, createAccount } from "../../src/worker/auth/accounts";
import { hashApiKey, type KeyMode } from "../../src/common/auth/api-key";
import { keyIndexName } from "../../src/worker/auth/key-record";
import type { KeyView } from "../../src/worker/auth/account-views";
import type { Scope } from "../../src/common/auth/scopes";
import { recordingBinding } from "./support/recording-binding";

export const ORIGIN = "https://api.test";
let counter = 0;

export interface TestAccount {
  accountId: string;
  email: string;
  password: string;
}

export async function newAccount(options: { operator?: boolean } = {}): Promise<TestAccount> {
  const email = `user${++counter}-${crypto.randomUUID().slice(0, 8)}@example.test`;
  const password = "correct horse battery staple";
  const created = await createAccount(env, {
    email,
    password,
    name: `Test ${counter}`,
    roles: [options.operator ? "operator" : "customer"],
  });
  if (!created.ok) throw new Error(created.detail);
  return { accountId: created.value.id, email, password };
}

export interface TestKey {
  secret: string;
  key: KeyView;
  accountId: string;
}

export async function newKey(
  accountId: string,
  options: { mode?: KeyMode; scopes?: Scope[]; name?: string } = {},
): Promise<TestKey> {
  const created = await accountObject(env, accountId).createKey({
    mode: options.mode ?? env.KEY_MODE,
    scopes: options.scopes,
    name: options.name,
  });
  if (!created.ok) throw new Error(created.detail);
  return { secret: created.value.secret, key: created.value.key, accountId };
}

/** A fresh account with one key (default scopes unless given). */
export async function accountWithKey(options: { scopes?: Scope[] } = {}): Promise<TestKey> {
  const { accountId } = await newAccount();
  return newKey(accountId, options);
}

export const bearer = (secret: string): Record<string, string> => ({ Authorization: `Bearer ${secret}` });

/** Calls the worker's own app with `bindings` (default: the real ones) and waits for waitUntil work. */
export async function call(path: string, init: RequestInit = {}, bindings: Env = env): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(new URL(path, ORIGIN), init), bindings, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

export type StorageCalls = string[];

/**
 * The real bindings, wrapped so that every KV, R2 and Durable Object namespace call is recorded
 * (`"AUTH_KV.get"`, `"SUBJECT_GUARDS.getByName"`, …). Vars and the IP limiter pass through unrecorded.
 */
export function countingEnv(overrides: Partial<Record<keyof Env | "OPERATOR_SECRET", unknown>> = {}): {
  env: Env;
  calls: StorageCalls;
} {
  const calls: StorageCalls = [];
  const storage = [
    "CATALOG_KV",
    "AUTH_KV",
    "OAUTH_KV",
    "RELEASES",
    "ACCOUNTS",
    "ACCOUNT_DIRECTORY",
    "SUBJECT_GUARDS",
  ] as const;
  const wrapped: Record<string, unknown> = { ...env, ...overrides };
  for (const name of storage) {
    const binding = (env as unknown as Record<string, object | undefined>)[name];
    if (!binding) continue;
    wrapped[name] = recordingBinding(binding, (method) => calls.push(`${name}.${method}`));
  }
  return { env: wrapped as unknown as Env, calls };
}

/** `path` asked from a fresh client address through countingEnv(): the answer and every storage call it made. */
export async function countedCall(
  path: string,
  init: RequestInit = {},
): Promise<{ res: Response; calls: StorageCalls }> {
  const { env: counted, calls } = countingEnv();
  const headers = new Headers(init.headers);
  headers.set("CF-Connecting-IP", freshIp());
  const res = await call(path, { ...init, headers }, counted);
  return { res, calls };
}

/** Each request its own client address (RFC 3849 documentation range), so the per-IP limit of invalid credentials never interferes. */
export const freshIp = () => `2001:db8::${(++counter).toString(16)}:${crypto.randomUUID().slice(0, 4)}`;

let shared: Promise<{ secret: string; index: string }> | undefined;

/**
 * One key for every test that is not about authentication (e.g. test/worker/support/api.ts): all
 * default scopes, and a rate-limit override high enough that no test is throttled by accident.
 * Made again when a test wiped the storage (`reset()` from cloudflare:test).
 */
export async function sharedTestKey(): Promise<string> {
  const current = shared && (await shared);
  if (current && (await env.AUTH_KV.get(current.index)) !== null) return current.secret;
  shared = (async () => {
    const { secret, key } = await accountWithKey();
    await env.SUBJECT_GUARDS.getByName(key.id).setPolicyOverride({ rate: 1_000_000, burst: 1_000_000 });
    return { secret, index: keyIndexName(await hashApiKey(secret)) };
  })();
  return (await shared).secret;
}
