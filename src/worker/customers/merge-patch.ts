/**
 * RFC 7396 JSON merge patch, §2's algorithm: an object patch merges member by member, `null`
 * removes a member, anything else replaces the target. Pure.
 */
type Json = null | boolean | number | string | Json[] | { [member: string]: Json };

const isObject = (value: unknown): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else result[name] = mergePatch(result[name], value);
  }
  return result;
}
