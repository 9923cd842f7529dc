/**
 * The query strings of the "What changed" pages (docs/explorer.md): `release` and `since` (release
 * ids, `sha256:` optional, each at most once) and, for the list of profiles behind a count,
 * `change` and optionally `field` with `transition` (`old→new` as the summary keys it). Anything
 * else is refused; every problem is reported at once.
 */
import { TRANSITION_FIELDS } from "../../common/catalog/history-fields";
import { RELEASE_ID } from "../catalog/service/release";
import type { InputProblem } from "./compare-ids";

export const CHANGE_KINDS = ["added", "removed", "changed"] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface ChangesAsked {
  release?: string;
  since?: string;
  change?: ChangeKind;
  field?: string;
  transition?: string;
}

type Parsed = { ok: true; asked: ChangesAsked } | { ok: false; errors: InputProblem[] };

const PAIR = ["release", "since"] as const;
const LIST = [...PAIR, "change", "field", "transition"] as const;

/** The "What changed" page's parameters: only the pair. */
export const pairParamsOf = (url: URL): Parsed => verdict(parse(url, PAIR));

/** The changed-profiles list's: the pair, `change` (required), `field` and `transition` together. */
export function listParamsOf(url: URL): Parsed {
  const { asked, errors } = parse(url, LIST);
  const given = (name: string) => url.searchParams.has(name);
  if (!given("change")) errors.push({ parameter: "change", message: `is required: one of ${CHANGE_KINDS.join(", ")}` });
  if (given("field") !== given("transition"))
    errors.push({ parameter: given("field") ? "transition" : "field", message: "field and transition go together" });
  if (asked.field !== undefined && asked.change !== undefined && asked.change !== "changed")
    errors.push({ parameter: "change", message: "must be changed when a field's transition is chosen" });
  return verdict({ asked, errors });
}

const verdict = ({ asked, errors }: { asked: ChangesAsked; errors: InputProblem[] }): Parsed =>
  errors.length ? { ok: false, errors } : { ok: true, asked };

/** Each allowed parameter that is valid, and a problem for each one that is not. */
function parse(url: URL, allowed: readonly string[]): { asked: ChangesAsked; errors: InputProblem[] } {
  const errors: InputProblem[] = [];
  const asked: Record<string, string> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    const problem = !allowed.includes(name)
      ? `unknown parameter ${JSON.stringify(name)}`
      : values.length > 1
        ? "must be given once"
        : problemOf(name, values[0] ?? "");
    if (problem) errors.push({ parameter: name, message: problem });
    else asked[name] = values[0] ?? "";
  }
  return { asked: asked as ChangesAsked, errors };
}

const shown = (value: string) => JSON.stringify(value.slice(0, 80));

function problemOf(name: string, value: string): string | null {
  switch (name) {
    case "release":
    case "since":
      return RELEASE_ID.test(value)
        ? null
        : `${shown(value)} is not a release id (sha256: and 64 lowercase hex digits)`;
    case "change":
      return (CHANGE_KINDS as readonly string[]).includes(value) ? null : `must be one of ${CHANGE_KINDS.join(", ")}`;
    case "field":
      return TRANSITION_FIELDS.some((field) => field.name === value)
        ? null
        : `must be one of ${TRANSITION_FIELDS.map((field) => field.name).join(", ")}`;
    default:
      return value.includes("\u2192") ? null : `${shown(value)} is not a transition old→new`;
  }
}
