/**
 * The "Generate a key" form: what it posts, read into a key request or into messages that say,
 * field by field, what to fix. Pure; the route does the I/O.
 */
import { MAX_KEY_NAME_LENGTH } from "../auth/account-views";
import { KEY_MODES, type KeyMode } from "../../common/auth/api-key";
import { isScope, normalizeScopes, type Scope } from "../../common/auth/scopes";
import type { FormValue } from "./form-once";

export interface KeyFormValues {
  name: string;
  mode: string;
  access: "all" | "restricted";
  scopes: string[];
}

export type KeyFormField = "name" | "mode" | "scopes";

export type KeyFormReading =
  | { ok: true; values: KeyFormValues; request: { mode: KeyMode; name: string | null; scopes?: Scope[] } }
  | { ok: false; values: KeyFormValues; errors: Partial<Record<KeyFormField, string>> };

export const emptyKeyForm = (mode: KeyMode): KeyFormValues => ({ name: "", mode, access: "all", scopes: [] });

const text = (value: FormValue) => (typeof value === "string" ? value : "");

export function readKeyForm(form: FormData, deploymentMode: KeyMode): KeyFormReading {
  const values: KeyFormValues = {
    name: text(form.get("name")).trim(),
    mode: text(form.get("mode")) || deploymentMode,
    access: text(form.get("access")) === "restricted" ? "restricted" : "all",
    scopes: form.getAll("scopes").map(text),
  };
  const errors: Partial<Record<KeyFormField, string>> = {};
  if (values.name.length > MAX_KEY_NAME_LENGTH)
    errors.name = `Use at most ${MAX_KEY_NAME_LENGTH} characters (this name has ${values.name.length}).`;
  if (!(KEY_MODES as readonly string[]).includes(values.mode)) {
    errors.mode = "Choose live or test.";
  } else if (values.mode !== deploymentMode) {
    const other = deploymentMode === "live" ? "sandbox" : "production";
    errors.mode = `This dashboard creates ${deploymentMode} keys only. ${values.mode === "test" ? "Test" : "Live"} keys are created on the ${other} dashboard.`;
  }
  let scopes: Scope[] | undefined;
  if (values.access === "restricted") {
    const unknown = values.scopes.filter((scope) => !isScope(scope));
    if (unknown.length > 0) errors.scopes = `Unknown scope ${unknown.join(", ")}.`;
    else if (values.scopes.length === 0)
      errors.scopes = "Choose at least one scope for a restricted key, or choose “All scopes except admin”.";
    else scopes = normalizeScopes(values.scopes as Scope[]);
  }
  if (Object.keys(errors).length > 0) return { ok: false, values, errors };
  return { ok: true, values, request: { mode: values.mode as KeyMode, name: values.name || null, scopes } };
}
