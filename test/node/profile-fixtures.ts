/** Sample profiles from data/profiles as test bases: clone, break one thing, check the report. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const PROFILES_DIR = path.resolve(import.meta.dirname, "../../data/profiles");

// biome-ignore lint/suspicious/noExplicitAny: fixtures break profiles in every way a test needs, which no type allows.
export type Mutable = any;

export function sample(name: string): Mutable {
  return JSON.parse(readFileSync(path.join(PROFILES_DIR, `${name}.json`), "utf8"));
}

export function allSamples(): { file: string; profile: Mutable }[] {
  return readdirSync(PROFILES_DIR)
    .filter((f) => f.endsWith(".json"))
    .map((file) => ({ file, profile: JSON.parse(readFileSync(path.join(PROFILES_DIR, file), "utf8")) }));
}

/** Limited at sign_up and operate (first non-pass stage: sign_up), complete coverage. */
export const constrainedProfile = () => sample("zurich-ledger-api--reconciliation");
/** All five stages pass. */
export const allPassProfile = () => sample("northwind-payments-api--checkout");
