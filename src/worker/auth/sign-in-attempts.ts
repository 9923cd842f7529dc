/**
 * Failed sign-ins per email, known or not: the AccountDirectory's SQLite table (one object per
 * deployment, so every attempt on an email is decided in one place, in order).
 *
 * Each attempt is counted *before* its password is checked and cleared by a success, so parallel
 * guesses cannot all pass the check: 4 are free, the 5th locks the email for 1 s (doubling per
 * further attempt up to 15 minutes, `lockoutMsAfter`), and while locked nothing is checked. A
 * record holds only a SHA-256 of the normalized email and expires 15 minutes after its last
 * attempt or lock, whichever is later; the directory's alarm deletes expired records, so millions
 * of tried emails leave nothing behind once they stop.
 */
import { sha256Hex } from "../../common/sha256";
import { normalizeEmail } from "./email";
import { lockoutMsAfter } from "./password";

export const FORGET_AFTER_MS = 15 * 60 * 1000;

export type AttemptDecision = { admitted: false; retryAfterMs: number } | { admitted: true; lockMs: number };

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sign_in_attempts (
  email_hash TEXT PRIMARY KEY, failures INTEGER NOT NULL, locked_until INTEGER NOT NULL, expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sign_in_attempts_expiry ON sign_in_attempts (expires_at);`;

interface AttemptRow {
  failures: number;
  locked_until: number;
}

export const emailHashOf = (email: string) => sha256Hex(`sign-in:${normalizeEmail(email)}`);

export class SignInAttempts {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(SCHEMA);
  }

  /** Counts one attempt on `emailHash` unless it is locked. Synchronous: no other attempt interleaves. */
  admit(emailHash: string, now: number): AttemptDecision {
    const row = this.sql
      .exec<AttemptRow & Record<string, SqlStorageValue>>(
        "SELECT failures, locked_until FROM sign_in_attempts WHERE email_hash = ? AND expires_at > ?",
        emailHash,
        now,
      )
      .toArray()[0];
    if (row && row.locked_until > now) return { admitted: false, retryAfterMs: row.locked_until - now };
    const failures = (row?.failures ?? 0) + 1;
    const lockMs = lockoutMsAfter(failures);
    const lockedUntil = lockMs ? now + lockMs : 0;
    this.sql.exec(
      "INSERT OR REPLACE INTO sign_in_attempts (email_hash, failures, locked_until, expires_at) VALUES (?, ?, ?, ?)",
      emailHash,
      failures,
      lockedUntil,
      Math.max(now, lockedUntil) + FORGET_AFTER_MS,
    );
    return { admitted: true, lockMs };
  }

  /** A correct password: the email's count starts again. */
  clear(emailHash: string): void {
    this.sql.exec("DELETE FROM sign_in_attempts WHERE email_hash = ?", emailHash);
  }

  /** Deletes expired records; returns when the next one expires, or null when none is left. */
  deleteExpired(now: number): number | null {
    this.sql.exec("DELETE FROM sign_in_attempts WHERE expires_at <= ?", now);
    const next = this.sql
      .exec<{ next: number | null }>("SELECT MIN(expires_at) AS next FROM sign_in_attempts")
      .one().next;
    return next ?? null;
  }
}
