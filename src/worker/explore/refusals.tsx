/**
 * The explorer's words for what the catalog refuses: the read service's misses (no release yet,
 * a release not readable here yet) and the query engine's refusal of a cursor, each a page with
 * its status, never a problem+json body. Anything else is the dashboard's error page.
 */
import type { Context } from "hono";
import { CatalogReadError, type CatalogMiss } from "../catalog/service/errors";
import type { DashboardEnv } from "../dashboard/context";
import { renderUnexpectedError } from "../dashboard/page";
import { Problem } from "../http/problem";
import type { InputProblem } from "./compare-ids";
import { renderExploreRefusal } from "./page";
import { EXPLORE_PATHS } from "./paths";

const UNAVAILABLE = "The catalog is not available";

function missPage(c: Context<DashboardEnv>, miss: CatalogMiss) {
  switch (miss.kind) {
    case "no_release":
      return renderExploreRefusal(
        c,
        503,
        UNAVAILABLE,
        "No catalog release has been published on this deployment yet. Come back after the first publish.",
      );
    case "profile_not_found":
    case "profile_never_existed":
      return renderExploreRefusal(c, 404, "Profile not found", "It may have left the catalog.");
    case "release_not_in_history":
      return renderExploreRefusal(
        c,
        404,
        "Release not in the history",
        "Only releases made current on this deployment since its history began can be compared.",
        [{ parameter: miss.side === "since" ? "since" : "release", message: `${miss.releaseId} is not one of them` }],
        { href: EXPLORE_PATHS.changes, label: "What changed in the latest publish" },
      );
    case "invalid_history_cursor":
      return staleCursorPage(c);
    default:
      return renderExploreRefusal(
        c,
        503,
        UNAVAILABLE,
        "The current release cannot be read here right now. Reload the page in a moment.",
      );
  }
}

/** A Next page link made for another query or release: said once, in words, with the way to page 1. */
function staleCursorPage(c: Context<DashboardEnv>) {
  const url = new URL(c.req.url);
  url.searchParams.delete("cursor");
  return renderExploreRefusal(
    c,
    400,
    "This page link no longer applies",
    "The page link you followed was made for another query or an earlier release, so it cannot continue here.",
    [],
    { href: `${url.pathname}${url.search}`, label: "First page of this view" },
  );
}

export function onExploreError(error: Error, c: Context<DashboardEnv>) {
  if (error instanceof CatalogReadError) return missPage(c, error.miss);
  if (error instanceof Problem && error.code === "invalid_cursor") return staleCursorPage(c);
  if (!(error instanceof Problem)) return renderUnexpectedError(error, c);
  const status = error.status === 400 ? 400 : error.status === 404 ? 404 : 503;
  const problems = (error.options.extra?.errors as InputProblem[] | undefined) ?? [];
  return renderExploreRefusal(
    c,
    status,
    status === 503 ? UNAVAILABLE : "This view cannot be shown",
    error.detail,
    problems,
  );
}
