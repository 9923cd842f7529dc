/**
 * The MCP door's words for the read service's misses (catalog/service/errors.ts): `<code>: <what
 * happened and which tool call or argument fixes it>`, so a model can act on it. The codes are
 * the catalog's (docs/mcp.md); the advice names tools and arguments, never URLs of another door.
 */
import type { CatalogMiss, ProfileRef } from "../catalog/service/errors";

const described = (ref: ProfileRef) =>
  "id" in ref ? `with id ${ref.id}` : `for product "${ref.product}" and funnel "${ref.funnel}"`;

export function mcpMessageOf(miss: CatalogMiss): string {
  switch (miss.kind) {
    case "no_release":
      return "catalog_unavailable: No catalog release has been published on this deployment yet; try again later.";
    case "current_not_readable":
      return `release_unavailable: The current release ${miss.releaseId} is not readable here yet; try again shortly.`;
    case "storage_unreadable":
      return `release_unavailable: The ${miss.what === "index" ? "index" : "profile bytes"} of release ${miss.releaseId} cannot be read right now; try again shortly.`;
    case "release_not_found":
      return `release_not_found: No release ${miss.releaseId} is published on this deployment; omit release_id for the current release (describe_catalog names it).`;
    case "release_gone":
      return (
        `release_gone: Release ${miss.releaseId} is not kept any more, so the changes since it cannot be listed; ` +
        `the oldest kept release is ${miss.oldestKept}. Search the current release with search_profiles instead.`
      );
    case "release_not_indexed":
      return `release_not_indexed: Release ${miss.releaseId} was published without a profile index, so its profiles cannot be read one by one; omit release_id to read the current release.`;
    case "profile_not_found":
      return `profile_not_found: Release ${miss.releaseId} has no profile ${described(miss.ref)}. Call search_profiles (e.g. with q or product) to find the right keys.`;
    case "profile_never_existed":
      return `profile_not_found: No profile ${described(miss.ref)} was ever in a release of this deployment's history. Call search_profiles (e.g. with q or product) to find the right keys.`;
    case "release_not_in_history":
      return `release_not_found: ${miss.side} ${miss.releaseId} was never made current on this deployment since its history began; describe_catalog names the current release.`;
    case "invalid_history_cursor":
      return "invalid_cursor: cursor: not a cursor of this profile's history; pass the next_cursor of the previous page, for the same profile.";
    case "invalid_changes_cursor":
      return `invalid_cursor: cursor: not a cursor of this list (${miss.reason}); pass the next_cursor of the previous page, with the same since and release_id.`;
    case "cursor_of_other_release":
      return `invalid_cursor: cursor: is a cursor of release ${miss.started}, not of release_id; leave release_id out to continue.`;
  }
}
