/**
 * The addresses of the MCP App views (SEP-1865, docs/mcp.md "A view inside the conversation"):
 * the two shells the tools link in `tools/list`, and the rendered view of one answer, pinned to
 * the release it came from: `ui://readiness-catalog/profile/{release}/{product}/{funnel}` and
 * `ui://readiness-catalog/compare/{release}?ids=arp_…,arp_…`, `{release}` a release id or
 * `current`. Parsing says every problem, as a resource-not-found message.
 */
import { KEY_PATTERN, PROFILE_ID_PATTERN } from "../../common/catalog/schema";
import { RELEASE_ID } from "../catalog/service/release";

const ROOT = "ui://readiness-catalog";

/** The shells: what get_profile and compare_profiles name as their view (`_meta.ui.resourceUri`). */
export const APP_SHELL_URI = { profile: `${ROOT}/profile`, compare: `${ROOT}/compare` } as const;

/** The templates of the rendered views, as `resources/templates/list` gives them. */
export const APP_VIEW_TEMPLATE = {
  profile: `${APP_SHELL_URI.profile}/{release}/{product}/{funnel}`,
  compare: `${APP_SHELL_URI.compare}/{release}{?ids}`,
} as const;

/** compare_profiles compares 2 to 10 profiles; its view shows the same. */
export const COMPARED = { min: 2, max: 10 } as const;

const CURRENT = "current";

export const profileViewUri = (releaseId: string, product: string, funnel: string) =>
  `${APP_SHELL_URI.profile}/${releaseId}/${product}/${funnel}`;

export const compareViewUri = (releaseId: string, ids: string[]) =>
  `${APP_SHELL_URI.compare}/${releaseId}?ids=${ids.join(",")}`;

/** A template variable as sent (the SDK gives it undecoded), or null when it is not valid percent-encoding. */
function decoded(value: string | string[] | undefined): string | null {
  try {
    return decodeURIComponent([value ?? ""].flat().join(","));
  } catch {
    return null;
  }
}

/** The release a view is pinned to: undefined for `current`; else the problem. */
function releaseOf(value: string | null, problems: string[]): string | undefined {
  if (value === CURRENT) return undefined;
  if (value === null || !RELEASE_ID.test(value))
    problems.push(`release: must be "${CURRENT}" or a release id (sha256:…)`);
  return value ?? undefined;
}

type Variables = Record<string, string | string[]>;
export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: string[] };

const parsed = <T>(problems: string[], value: T): Parsed<T> =>
  problems.length ? { ok: false, problems } : { ok: true, value };

export function profileViewOf(variables: Variables): Parsed<{ releaseId?: string; product: string; funnel: string }> {
  const problems: string[] = [];
  const releaseId = releaseOf(decoded(variables.release), problems);
  const [product, funnel] = (["product", "funnel"] as const).map((name) => {
    const key = decoded(variables[name]) ?? "";
    if (!KEY_PATTERN.test(key)) problems.push(`${name}: must be a key, lowercase words joined by hyphens`);
    return key;
  }) as [string, string];
  return parsed(problems, { releaseId, product, funnel });
}

export function compareViewOf(variables: Variables): Parsed<{ releaseId?: string; ids: string[] }> {
  const problems: string[] = [];
  const releaseId = releaseOf(decoded(variables.release), problems);
  const ids = (decoded(variables.ids) ?? "").split(",");
  const bad = ids.filter((id) => !PROFILE_ID_PATTERN.test(id));
  if (bad.length)
    problems.push(`ids: ${bad.map((id) => JSON.stringify(id.slice(0, 40))).join(", ")} not a profile id (arp_…)`);
  if (ids.length < COMPARED.min || ids.length > COMPARED.max)
    problems.push(`ids: ${COMPARED.min} to ${COMPARED.max} profile ids, comma-separated; got ${ids.length}`);
  return parsed(problems, { releaseId, ids });
}
