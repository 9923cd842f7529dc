/**
 * One page of an account's keys, the way Stripe's list endpoints page: keys stay in their one
 * order (oldest first); `starting_after` reads forward from a key, `ending_before` backward, and
 * `has_more` says whether more keys lie beyond the page in that direction. Without `limit` the
 * page is every key from the cursor on (what GET /v1/keys returned before it paged).
 */
import type { KeyView } from "../auth/account-views";
import { cursorProblem } from "../http/query-problem";
import type { KeyListQuery } from "./schemas";

export interface KeyPage {
  data: KeyView[];
  has_more: boolean;
}

export function pageOfKeys(keys: readonly KeyView[], query: KeyListQuery): KeyPage {
  const limit = query.limit ?? keys.length;
  if (query.ending_before) {
    const end = cursorIndex(keys, query.ending_before, "ending_before");
    const start = Math.max(0, end - limit);
    return { data: keys.slice(start, end), has_more: start > 0 };
  }
  const start = query.starting_after ? cursorIndex(keys, query.starting_after, "starting_after") + 1 : 0;
  return { data: keys.slice(start, start + limit), has_more: start + limit < keys.length };
}

function cursorIndex(keys: readonly KeyView[], keyId: string, parameter: string): number {
  const index = keys.findIndex((key) => key.id === keyId);
  if (index >= 0) return index;
  const message = `${keyId} is not a key of this account: take the cursor from a page of this list`;
  throw cursorProblem(parameter, message);
}
