/**
 * The operator API behind `npm run operator` (scripts/operator.ts): accounts, keys of any account, admin
 * approval (for API keys here; for OAuth apps in admin-requests.ts), per-key rate limits
 * and strict admission (every request asks the key's SubjectGuard). It runs inside the worker because
 * the Durable Objects that own accounts and keys can only be reached there, the same way locally
 * and on Cloudflare; it is left out of /openapi.json and closed unless OPERATOR_SECRET is set
 * (src/worker/operator/auth.ts).
 */
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { accountDirectory, accountObject, createAccount, outcomeValue } from "../auth/accounts";
import { ACCOUNT_ID_PATTERN, KEY_ID_PATTERN } from "../../common/auth/ids";
import type { AppEnv } from "../http/context";
import { Problem } from "../http/problem";
import { RatePolicySchema } from "../limits/policy";
import { registerOperatorAdminRequests } from "./admin-requests";
import { requireOperator } from "./auth";
import { registerOperatorUsage } from "./usage-route";
import { AccountParams, OPERATOR_BASE, operatorRoute } from "./route";
import { CreateKeyBody } from "../keys/schemas";

const KeyParams = z.object({
  key_id: z.string().regex(KEY_ID_PATTERN, "a key id looks like key_live_… or key_test_… + 20 base62 characters"),
});
const json = <S extends z.ZodType>(schema: S) => ({
  body: { content: { "application/json": { schema } }, required: true },
});

const NewAccountBody = z.strictObject({
  email: z.email(),
  password: z.string().min(10, "use at least 10 characters").max(256),
  name: z.string().trim().min(1).max(100).optional(),
  operator: z.boolean().optional(),
  id: z.string().regex(ACCOUNT_ID_PATTERN).optional(),
});
const AdmissionBody = z.strictObject({ strict: z.boolean() });

export function registerOperatorRoutes(app: OpenAPIHono<AppEnv>) {
  // Before any route: every method and path under the base, unknown ones included, needs the secret.
  app.use(`${OPERATOR_BASE}/*`, requireOperator());
  registerOperatorUsage(app);
  app.openapi(operatorRoute({ method: "get", path: `${OPERATOR_BASE}/deployment` }), (c) =>
    c.json({ deployment: c.env.DEPLOYMENT, key_mode: c.env.KEY_MODE }),
  );

  app.openapi(
    operatorRoute({ method: "post", path: `${OPERATOR_BASE}/accounts`, request: json(NewAccountBody) }),
    async (c) => {
      const body = c.req.valid("json");
      const roles = body.operator ? (["operator"] as const) : (["customer"] as const);
      const account = outcomeValue(
        await createAccount(c.env, { ...body, name: body.name ?? body.email, roles: [...roles] }),
      );
      return c.json(account, 201);
    },
  );

  app.openapi(operatorRoute({ method: "get", path: `${OPERATOR_BASE}/accounts` }), async (c) => {
    const entries = await accountDirectory(c.env).list();
    const accounts = await Promise.all(
      entries.map(async (entry) => outcomeValue(await accountObject(c.env, entry.id).account())),
    );
    return c.json({ data: accounts });
  });

  app.openapi(
    operatorRoute({
      method: "post",
      path: `${OPERATOR_BASE}/accounts/{account_id}/admin-approval`,
      request: { params: AccountParams },
    }),
    async (c) => c.json(outcomeValue(await accountObject(c.env, c.req.valid("param").account_id).approveAdmin())),
  );

  app.openapi(
    operatorRoute({
      method: "delete",
      path: `${OPERATOR_BASE}/accounts/{account_id}/admin-approval`,
      request: { params: AccountParams },
    }),
    async (c) => c.json(outcomeValue(await accountObject(c.env, c.req.valid("param").account_id).withdrawAdmin())),
  );

  registerOperatorAdminRequests(app);

  app.openapi(
    operatorRoute({
      method: "post",
      path: `${OPERATOR_BASE}/accounts/{account_id}/keys`,
      request: { params: AccountParams, ...json(CreateKeyBody) },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const created = outcomeValue(
        await accountObject(c.env, c.req.valid("param").account_id).createKey({
          ...body,
          mode: body.mode ?? c.env.KEY_MODE,
        }),
      );
      c.header("Cache-Control", "no-store");
      return c.json({ ...created.key, secret: created.secret }, 201);
    },
  );

  app.openapi(
    operatorRoute({
      method: "get",
      path: `${OPERATOR_BASE}/accounts/{account_id}/keys`,
      request: { params: AccountParams },
    }),
    async (c) => c.json({ data: outcomeValue(await accountObject(c.env, c.req.valid("param").account_id).listKeys()) }),
  );

  app.openapi(
    operatorRoute({
      method: "post",
      path: `${OPERATOR_BASE}/keys/{key_id}/revocation`,
      request: { params: KeyParams },
    }),
    async (c) => {
      const { key_id } = c.req.valid("param");
      const owner = await ownerOf(c.env, key_id);
      return c.json(outcomeValue(await accountObject(c.env, owner).revokeKey(key_id)));
    },
  );

  app.openapi(
    operatorRoute({
      method: "put",
      path: `${OPERATOR_BASE}/keys/{key_id}/limits`,
      request: { params: KeyParams, ...json(RatePolicySchema) },
    }),
    async (c) => {
      const { key_id } = c.req.valid("param");
      await ownerOf(c.env, key_id);
      const guard = await c.env.SUBJECT_GUARDS.getByName(key_id).setPolicyOverride(c.req.valid("json"));
      return c.json({ key_id, policy_override: guard.policyOverride });
    },
  );

  app.openapi(
    operatorRoute({ method: "delete", path: `${OPERATOR_BASE}/keys/{key_id}/limits`, request: { params: KeyParams } }),
    async (c) => {
      const { key_id } = c.req.valid("param");
      await ownerOf(c.env, key_id);
      await c.env.SUBJECT_GUARDS.getByName(key_id).setPolicyOverride(null);
      return c.json({ key_id, policy_override: null });
    },
  );

  registerAdmissionMode(app);
}

/** Strict: every request of the key asks its SubjectGuard (no leases); answers once earlier leases have ended. */
function registerAdmissionMode(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    operatorRoute({
      method: "put",
      path: `${OPERATOR_BASE}/keys/{key_id}/admission`,
      request: { params: KeyParams, ...json(AdmissionBody) },
    }),
    async (c) => {
      const { key_id } = c.req.valid("param");
      await ownerOf(c.env, key_id);
      const guard = await c.env.SUBJECT_GUARDS.getByName(key_id).setStrict(c.req.valid("json").strict);
      return c.json({ key_id, strict: guard.strict });
    },
  );
}

/** A key's account, from its SubjectGuard (bound at creation): operators act on a key id alone. */
async function ownerOf(env: Env, keyId: string): Promise<string> {
  const { owner } = await env.SUBJECT_GUARDS.getByName(keyId).describe();
  if (!owner) throw new Problem("key_not_found", `No key ${keyId} on the ${env.DEPLOYMENT} deployment.`);
  return owner;
}
