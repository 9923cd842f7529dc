/**
 * POST /v1/keys: create a key for the calling key's account, on this deployment.
 * - mode: this deployment's only (production holds live keys, the sandbox test keys; they share no
 *   storage, so a test key can never mint a live key);
 * - scopes: at most the calling key's (403 `insufficient_scope` naming the first one it lacks);
 *   `admin` also needs the operator's approval for the account (403 `admin_not_approved`);
 * - at most 3 active keys (409 `key_limit_reached`), decided race-free by the AccountObject.
 * The secret is in this response only (`Cache-Control: no-store`).
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { wrongKeyModeDetail } from "../auth/account-views";
import { accountObject, outcomeValue } from "../auth/accounts";
import { insufficientScope, realmOf } from "../auth/challenge";
import { bearerSecurity, protect } from "../auth/protect";
import { DEFAULT_KEY_SCOPES, scopesMissing } from "../../common/auth/scopes";
import type { AppEnv } from "../http/context";
import { problemResponses } from "../http/openapi-responses";
import { noEntityTags } from "../http/preconditions";
import { NO_QUERY } from "../http/strict-query";
import { Problem } from "../http/problem";
import { callingKey } from "./caller";
import { CreateKeyBody, CreatedKey } from "./schemas";

const route = createRoute({
  method: "post",
  path: "/v1/keys",
  operationId: "createKey",
  tags: ["API keys"],
  summary: "Create an API key",
  description:
    "Returns the new key's secret once. Rotation: create a key, deploy it, then revoke the old one (DELETE /v1/keys/{id}).",
  middleware: [protect(), noEntityTags()] as const,
  security: bearerSecurity(),
  request: { query: NO_QUERY, body: { required: false, content: { "application/json": { schema: CreateKeyBody } } } },
  responses: {
    201: {
      description: "The key, with its secret (shown once).",
      content: { "application/json": { schema: CreatedKey } },
    },
    ...problemResponses(
      "bad_request",
      "wrong_key_mode",
      "insufficient_scope",
      "admin_not_approved",
      "forbidden",
      "key_limit_reached",
      "precondition_failed",
      "content_too_large",
      "unsupported_media_type",
    ),
  },
});

export function registerCreateKey(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const caller = callingKey(c);
    const body = c.req.valid("json") ?? {};
    const mode = body.mode ?? c.env.KEY_MODE;
    if (mode !== c.env.KEY_MODE) throw new Problem("wrong_key_mode", wrongKeyModeDetail(c.env, mode));
    const scopes = body.scopes ?? DEFAULT_KEY_SCOPES.filter((scope) => caller.scopes.includes(scope));
    const [missing] = scopesMissing(caller.scopes, scopes);
    if (missing) {
      throw insufficientScope(
        missing,
        realmOf(c.env.DEPLOYMENT),
        `A key can only create keys with scopes it has itself; the calling key (ending in ${caller.last4}) lacks ${missing}.`,
      );
    }
    const created = outcomeValue(
      await accountObject(c.env, caller.accountId).createKey({ mode, name: body.name ?? null, scopes }),
    );
    c.header("Cache-Control", "no-store");
    return c.json({ ...created.key, secret: created.secret }, 201);
  });
}
