/** The addresses of the "What changed" pages: a pair of releases and, for a count, what it counts. */
import type { ChangeKind } from "./changes-params";
import { EXPLORE_PATHS } from "./paths";

export interface ReleasePairIds {
  release: string;
  since: string;
}

export const pairHref = (pair: ReleasePairIds) =>
  `${EXPLORE_PATHS.changes}?${new URLSearchParams({ release: pair.release, since: pair.since })}`;

/** The list of the profiles one count of the pair counts. */
export const changesHref = (pair: ReleasePairIds, what: { change: ChangeKind; field?: string; transition?: string }) =>
  `${EXPLORE_PATHS.changedProfiles}?${new URLSearchParams({ release: pair.release, since: pair.since, ...what })}`;
