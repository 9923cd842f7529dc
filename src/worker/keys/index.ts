/**
 * The self-service key API (/v1/keys) and the Bearer scheme in /openapi.json. src/worker/index.ts
 * registers it with one call.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { registerBearerScheme } from "../auth/protect";
import type { AppEnv } from "../http/context";
import { registerCreateKey } from "./create-key";
import { registerListKeys } from "./list-keys";
import { registerRevokeKey } from "./revoke-key";

export function registerKeyRoutes(app: OpenAPIHono<AppEnv>) {
  registerBearerScheme(app);
  registerCreateKey(app);
  registerListKeys(app);
  registerRevokeKey(app);
}
