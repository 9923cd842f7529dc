/**
 * The REST door's words for the read service's misses (service/errors.ts): each one as the
 * problem+json its code documents (docs/contract.md, README's error table). The app's `onError`
 * renders every miss a catalog route lets through with `problemOfMiss`.
 */
import { Problem } from "../http/problem";
import { cursorProblem } from "../http/query-problem";
import { CATALOG_RETRY_AFTER_SECONDS } from "./release-lookup";
import type { CatalogMiss, ProfileRef } from "./service/errors";

const described = (ref: ProfileRef) =>
  "id" in ref ? `with id ${ref.id}` : `for product "${ref.product}" and funnel "${ref.funnel}"`;

const retry = { headers: { "Retry-After": String(CATALOG_RETRY_AFTER_SECONDS) } };

export function problemOfMiss(miss: CatalogMiss): Problem {
  switch (miss.kind) {
    case "no_release":
      return new Problem(
        "catalog_unavailable",
        "No catalog release has been published on this deployment yet; retry later.",
        retry,
      );
    case "current_not_readable":
      return new Problem(
        "release_unavailable",
        `The current release ${miss.releaseId} is not readable at this location yet; retry shortly.`,
        retry,
      );
    case "storage_unreadable":
      return new Problem(
        "release_unavailable",
        `${miss.what === "index" ? "This release's index" : "Part of this release"} cannot be read from storage right now; retry shortly.`,
        retry,
      );
    case "release_not_found":
      return new Problem(
        "release_not_found",
        `No release ${miss.releaseId} is published on this deployment. GET /v1/releases/current names the current one.`,
      );
    case "release_gone":
      return new Problem(
        "release_gone",
        `Release ${miss.releaseId} is not kept on this deployment, so the changes since it cannot be listed; the oldest kept release is ${miss.oldestKept}. ` +
          "Download the whole current document instead.",
        { extra: { oldest_kept_release_id: miss.oldestKept } },
      );
    case "release_not_indexed":
      return new Problem(
        "release_not_indexed",
        `Release ${miss.releaseId} was published without a profile index, so its profiles cannot be looked up one by one; ` +
          "look them up in the current release, or download the release's parts.",
        { headers: { "Catalog-Release": miss.releaseId } },
      );
    case "profile_not_found":
      return new Problem("profile_not_found", `Release ${miss.releaseId} has no profile ${described(miss.ref)}.`, {
        headers: { "Catalog-Release": miss.releaseId },
        extra: { release_id: miss.releaseId },
      });
    case "profile_never_existed":
      return new Problem(
        "profile_not_found",
        `No profile ${described(miss.ref)} was ever in a release of this deployment's history. Find the keys with GET /v1/profiles?q=… .`,
      );
    case "release_not_in_history":
      return new Problem(
        "release_not_found",
        `${miss.side} ${miss.releaseId} was never made current on this deployment since its history began; GET /v1/releases lists releases.`,
        { extra: { release_id: miss.releaseId } },
      );
    case "invalid_history_cursor":
      return cursorProblem("cursor", "is not a cursor of this history: follow the previous page's `next` as it is");
    case "invalid_changes_cursor":
      return cursorProblem("cursor", `not a cursor of this list: ${miss.reason}; take it from \`next\``);
    case "cursor_of_other_release":
      return cursorProblem("cursor", `is a cursor of release ${miss.started}: follow the \`next\` URL as it is`);
  }
}
