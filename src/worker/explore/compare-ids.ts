/**
 * The compare page's query string: `id` repeated (what the results' checkboxes send) or as one
 * comma-separated list, 2 to 5 distinct profile ids, and nothing else. Every problem is reported.
 */
import { PROFILE_ID_PATTERN } from "../../common/catalog/schema";

export const MIN_COMPARED = 2;
export const MAX_COMPARED = 5;

export interface InputProblem {
  parameter: string;
  message: string;
}

export type CompareIds = { ok: true; ids: string[] } | { ok: false; errors: InputProblem[] };

export function compareIdsOf(url: URL): CompareIds {
  const errors: InputProblem[] = [];
  for (const name of new Set(url.searchParams.keys()))
    if (name !== "id") errors.push({ parameter: name, message: `unknown parameter ${JSON.stringify(name)}` });
  const ids = [...new Set(url.searchParams.getAll("id").flatMap((value) => value.split(",")))];
  for (const id of ids)
    if (!PROFILE_ID_PATTERN.test(id))
      errors.push({
        parameter: "id",
        message: `${JSON.stringify(id.slice(0, 80))} is not a profile id (arp_ and 26 lowercase letters or digits)`,
      });
  if (ids.length < MIN_COMPARED || ids.length > MAX_COMPARED)
    errors.push({
      parameter: "id",
      message: `choose ${MIN_COMPARED} to ${MAX_COMPARED} different profiles to compare, got ${ids.length}`,
    });
  return errors.length ? { ok: false, errors } : { ok: true, ids };
}
