/**
 * What differs between two releases (docs/contract.md, "Changes between releases"), computed by a
 * streaming merge of their scope indexes: both list every profile in catalog order (product key,
 * funnel key, id), so one pass over each, a leaf page at a time, yields the differences in
 * catalog order without holding either index. Pure: the entries come from any source.
 *
 * A profile is matched by its place in the catalog and its id; identical bytes (same sha256) are
 * not listed. A profile whose product or funnel key changed is listed twice: removed at its old
 * place, added at its new one (each side keeps its document position, which is what `sync`
 * rebuilds the document from).
 */
import { scopeKey, type ScopedProfile } from "./profile-index";

export type ChangeKind = "added" | "changed" | "removed";

/** One change as every door lists it: the client package's definition of the wire shape. */
export type { ReleaseChange as ChangeEntry } from "../../../packages/client/src/release-changes.js";

/** Where a profile's bytes are in one release's document, and their sha256 (lowercase hex). */
export interface ProfileBytes {
  offset: number;
  length: number;
  sha256: string;
}

export interface ReleaseChange {
  change: ChangeKind;
  productKey: string;
  funnelKey: string;
  id: string;
  /** In the newer release: absent when removed. */
  current?: ProfileBytes;
  /** In the older release: absent when added. */
  previous?: ProfileBytes;
}

export interface ChangeCounts {
  added: number;
  changed: number;
  removed: number;
}

const bytesOf = (p: ScopedProfile): ProfileBytes => ({ offset: p.offset, length: p.length, sha256: p.sha256 });
const orderKey = (p: ScopedProfile) => `${scopeKey(p.productKey, p.funnelKey)} ${p.id}`;

/** The differences from `older` to `newer`, both in catalog order, as one ordered stream. */
export async function* mergeChanges(
  older: AsyncIterable<ScopedProfile>,
  newer: AsyncIterable<ScopedProfile>,
): AsyncGenerator<ReleaseChange> {
  const olderIt = older[Symbol.asyncIterator]();
  const newerIt = newer[Symbol.asyncIterator]();
  let before = await olderIt.next();
  let after = await newerIt.next();
  while (!before.done || !after.done) {
    const order = before.done ? 1 : after.done ? -1 : compare(orderKey(before.value), orderKey(after.value));
    if (order < 0 && !before.done) {
      yield entry("removed", before.value, undefined, bytesOf(before.value));
      before = await olderIt.next();
    } else if (order > 0 && !after.done) {
      yield entry("added", after.value, bytesOf(after.value), undefined);
      after = await newerIt.next();
    } else if (!before.done && !after.done) {
      if (before.value.sha256 !== after.value.sha256)
        yield entry("changed", after.value, bytesOf(after.value), bytesOf(before.value));
      before = await olderIt.next();
      after = await newerIt.next();
    }
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function entry(
  change: ChangeKind,
  p: ScopedProfile,
  current: ProfileBytes | undefined,
  previous: ProfileBytes | undefined,
): ReleaseChange {
  return { change, productKey: p.productKey, funnelKey: p.funnelKey, id: p.id, current, previous };
}

/**
 * One change as a line of the cached list (storage.md, `releases/<hex>/changes/<since hex>`):
 * `<a|c|r> <product_key> <funnel_key> <id> <offset> <length> <sha256> <previous offset> <previous length> <previous sha256>`,
 * `-` for the side that does not exist. ASCII, like the index lines it comes from.
 */
export function changeLine(c: ReleaseChange): string {
  const side = (b: ProfileBytes | undefined) => (b ? `${b.offset} ${b.length} ${b.sha256}` : "- - -");
  return `${c.change[0]} ${c.productKey} ${c.funnelKey} ${c.id} ${side(c.current)} ${side(c.previous)}\n`;
}

const KINDS: Record<string, ChangeKind> = { a: "added", c: "changed", r: "removed" };

export function parseChangeLine(line: string): ReleaseChange {
  const f = line.split(" ");
  const change = KINDS[f[0] ?? ""];
  if (f.length !== 10 || !change) throw new ChangeFormatError(`a change line has ${f.length} fields, expected 10`);
  const field = (at: number) => f[at] ?? ""; // ten fields, checked above
  const side = (at: number): ProfileBytes | undefined =>
    field(at) === "-" ? undefined : { offset: Number(field(at)), length: Number(field(at + 1)), sha256: field(at + 2) };
  return { change, productKey: field(1), funnelKey: field(2), id: field(3), current: side(4), previous: side(7) };
}

export class ChangeFormatError extends Error {}
