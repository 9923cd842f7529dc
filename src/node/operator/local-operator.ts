/**
 * The local worker secrets, one random set per checkout in `.wrangler/operator.env` (gitignored,
 * mode 0600), created on first use: OPERATOR_SECRET (the operator API), OAUTH_TOKEN_KEY (seals
 * OAuth codes and tokens) and CURSOR_KEY (authenticates list cursors). `npm start` gives them to both of its `wrangler dev` servers
 * (`--env-file`), and `npm run operator` uses the operator secret to talk to them, or to the server it
 * starts itself when none is running. Deployed workers have their own (`wrangler secret put`).
 * A file from before a secret existed gets it added; existing values are kept.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expectDefined } from "../../common/expect";

const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");
export const LOCAL_OPERATOR_ENV_FILE = path.join(REPO_ROOT, ".wrangler", "operator.env");
const LOCAL_SECRETS = ["OPERATOR_SECRET", "OAUTH_TOKEN_KEY", "CURSOR_KEY"] as const;

export interface LocalOperator {
  /** For `wrangler dev --env-file`. */
  envFile: string;
  operatorSecret: string;
}

const valueIn = (text: string, name: string) => new RegExp(`^${name}=(\\S+)$`, "m").exec(text)?.[1];

export function localOperator(envFile = LOCAL_OPERATOR_ENV_FILE): LocalOperator {
  const text = existsSync(envFile) ? readFileSync(envFile, "utf8") : "";
  const missing = LOCAL_SECRETS.filter((name) => !valueIn(text, name));
  if (missing.length > 0) {
    const added = missing.map((name) => `${name}=${randomBytes(32).toString("base64url")}\n`).join("");
    mkdirSync(path.dirname(envFile), { recursive: true });
    writeFileSync(envFile, text + (text && !text.endsWith("\n") ? "\n" : "") + added, { mode: 0o600 });
  }
  const operatorSecret = valueIn(readFileSync(envFile, "utf8"), "OPERATOR_SECRET");
  return { envFile, operatorSecret: expectDefined(operatorSecret, `OPERATOR_SECRET in ${envFile}, just ensured`) };
}
