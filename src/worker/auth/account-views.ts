/**
 * What an account and its keys look like to callers (the self-service API, the operator API and
 * the OAuth sign-in): zod schemas, so /openapi.json documents the very shapes the code returns.
 * None of them can hold a secret: a key is shown by id, name and its last four characters.
 */
import { z } from "@hono/zod-openapi";
import { KEY_MODES, type KeyMode } from "../../common/auth/api-key";
import { KEY_STATUSES } from "./key-record";
import { ScopeSchema } from "../../common/auth/scopes";
import type { ProblemCode } from "../http/problem-types";
import type { ParameterError } from "../http/query-problem";
import type { ValidationError } from "../http/validation-problem";

export const ROLES = ["customer", "operator"] as const;
export type Role = (typeof ROLES)[number];

export const AccountView = z
  .object({
    id: z.string().openapi({ example: "acct_4Qb8mZ2cYw7LrT1sVx9k" }),
    name: z.string(),
    email: z.string(),
    roles: z.array(z.enum(ROLES)),
    admin_approved: z.boolean(),
    created_at: z.string(),
  })
  .openapi("Account");
export type AccountView = z.infer<typeof AccountView>;

/** A key's name, as the key API, the operator API and the dashboard form accept it. */
export const MAX_KEY_NAME_LENGTH = 100;
export const KeyNameSchema = z.string().trim().min(1).max(MAX_KEY_NAME_LENGTH);

/** Why a deployment refuses a key of the other mode (`wrong_key_mode`), wherever it is refused. */
export function wrongKeyModeDetail(env: { DEPLOYMENT: string; KEY_MODE: KeyMode }, asked: KeyMode): string {
  const home = asked === "live" ? "production" : "sandbox";
  return `The ${env.DEPLOYMENT} deployment creates ${env.KEY_MODE} keys only; create ${asked} keys on the ${home} deployment.`;
}

export const KeyView = z
  .object({
    id: z.string().openapi({ example: "key_test_8sQd2LmZpR4vXw1cTy7b" }),
    name: z.string().nullable().openapi({ example: "CI" }),
    mode: z.enum(KEY_MODES),
    scopes: z.array(ScopeSchema),
    status: z.enum(KEY_STATUSES),
    last4: z
      .string()
      .openapi({ example: "3kQz", description: "The key's last four characters: all that is ever shown again." }),
    created_at: z.string().openapi({ example: "2026-11-20T09:30:00.000Z" }),
    revoked_at: z.string().nullable(),
    last_used_at: z
      .string()
      .nullable()
      .openapi({
        description:
          "When the key was last used, to the minute: the start of the minute of its last admitted request, " +
          "or created_at when that minute began before the key was created (never earlier than created_at). Null if never used.",
      }),
  })
  .openapi("ApiKey");
export type KeyView = z.infer<typeof KeyView>;

/** A refusal from an account's Durable Object, carried across RPC as data, rendered as a Problem. */
export interface Refusal {
  ok: false;
  code: ProblemCode;
  detail: string;
  /** A validation problem's `errors` (src/worker/http/validation-problem.ts, query-problem.ts). */
  extra?: { errors: RefusalErrors };
}
export type Outcome<T> = { ok: true; value: T } | Refusal;

type RefusalErrors = ValidationError[] | ParameterError[];

export const refuse = (code: ProblemCode, detail: string, extra?: { errors: RefusalErrors }): Refusal =>
  extra ? { ok: false, code, detail, extra } : { ok: false, code, detail };
export const accept = <T>(value: T): Outcome<T> => ({ ok: true, value });
