/**
 * The local operator secret: one random OPERATOR_SECRET per checkout, in `.wrangler/operator.env`
 * (gitignored, mode 0600), created on first use. `npm start` gives it to both of its `wrangler dev`
 * servers (`--env-file`), and `npm run keys` uses it to talk to them, or to the server it starts
 * itself when none is running. Deployed workers have their own secret (`wrangler secret put`).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
export const LOCAL_OPERATOR_ENV_FILE = path.join(REPO_ROOT, ".wrangler", "operator.env");

export interface LocalOperator {
  /** For `wrangler dev --env-file`. */
  envFile: string;
  operatorSecret: string;
}

export function localOperator(envFile = LOCAL_OPERATOR_ENV_FILE): LocalOperator {
  if (existsSync(envFile)) {
    const match = /^OPERATOR_SECRET=(\S+)$/m.exec(readFileSync(envFile, "utf8"));
    if (match) return { envFile, operatorSecret: match[1]! };
  }
  const operatorSecret = randomBytes(32).toString("base64url");
  mkdirSync(path.dirname(envFile), { recursive: true });
  writeFileSync(envFile, `OPERATOR_SECRET=${operatorSecret}\n`, { mode: 0o600 });
  return { envFile, operatorSecret };
}
