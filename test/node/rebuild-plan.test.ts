/**
 * The pure plan `sync` rebuilds a document with (packages/client/src/node/rebuild-plan.ts), against
 * random old and new element lists: the unchanged runs of the old document, joined by commas, and
 * the new document's items must give back the new document exactly.
 */
import fc from "fast-check";
import { expect, it } from "vitest";
import { newItems, rebuildSteps, unchangedRuns, type Cut } from "../../packages/client/src/node/rebuild-plan";
import { expectDefined } from "../../src/common/expect";

const PREFIX = '{"data":';

/** The element at `cuts[index]` in `text`. */
function cutText(text: string, cuts: readonly Cut[], index: number): string {
  const { offset, length } = expectDefined(cuts[index], `cut ${index}`);
  return text.slice(offset, offset + length);
}

/** The document `{"data":[e1,e2,…]}` and where each element is in it. */
function documentOf(elements: readonly string[]): { text: string; at: Cut[] } {
  const at: Cut[] = [];
  let text = `${PREFIX}[`;
  for (const [i, element] of elements.entries()) {
    if (i) text += ",";
    at.push({ offset: text.length, length: element.length });
    text += element;
  }
  return { text: `${text}]}`, at };
}

const element = fc.string({ minLength: 1, maxLength: 6 }).map((s) => `"${s.replaceAll(/["\\]/g, "x")}"`);
const edit = fc.record({ kept: fc.boolean(), changed: fc.boolean(), added: fc.array(element, { maxLength: 2 }) });
/** An old document and a new one: old elements each kept as is, changed, or removed; new ones added anywhere. */
const editions = fc
  .tuple(fc.array(fc.tuple(element, edit), { maxLength: 12 }), fc.array(element, { maxLength: 2 }))
  .map(([plan, head]) => {
    const before: string[] = [];
    const after: string[] = [...head];
    const fromOld: boolean[] = head.map(() => false);
    const oldCut: boolean[] = [];
    for (const [value, { kept, changed, added }] of plan) {
      before.push(value);
      oldCut.push(!kept || changed);
      if (kept) {
        after.push(changed ? `${value}0` : value);
        fromOld.push(!changed);
      }
      after.push(...added);
      fromOld.push(...added.map(() => false));
    }
    const old = documentOf(before);
    const now = documentOf(after);
    return {
      old,
      now,
      oldCuts: old.at.filter((_, i) => oldCut[i]),
      newCuts: now.at.filter((_, i) => !fromOld[i]),
    };
  });

it("rebuilds the new document from the old one's unchanged runs and the new elements", () => {
  fc.assert(
    fc.property(editions, ({ old, now, oldCuts, newCuts }) => {
      const k = unchangedRuns(oldCuts, PREFIX.length, old.text.length)
        .map((run) => old.text.slice(run.start, run.end))
        .join(",");
      let taken = 0;
      const parts = newItems(newCuts, PREFIX.length, now.text.length).map((item) => {
        if (item.kind === "fetched") return cutText(now.text, newCuts, item.cut);
        if (taken > 0) taken++; // the comma between two runs
        const run = k.slice(taken, taken + item.length);
        taken += item.length;
        return run;
      });
      expect(`${PREFIX}[${parts.join(",")}]}`).toBe(now.text);
      expect(taken).toBe(k.length);
    }),
    { numRuns: 500 },
  );
});

it("as steps: increasing ranges of the old document, commas and the fetched elements make the new one", () => {
  fc.assert(
    fc.property(editions, ({ old, now, oldCuts, newCuts }) => {
      const steps = rebuildSteps(
        { cuts: oldCuts, dataStart: PREFIX.length, bytes: old.text.length },
        { cuts: newCuts, dataStart: PREFIX.length, bytes: now.text.length },
      );
      if (!steps) throw new Error("no steps for a consistent pair");
      let last = 0;
      const text = steps
        .map((step) => {
          if (step.kind === "comma") return ",";
          if (step.kind === "fetched") {
            return cutText(now.text, newCuts, step.cut);
          }
          expect(step.start).toBeGreaterThanOrEqual(last);
          last = step.end;
          return old.text.slice(step.start, step.end);
        })
        .join("");
      expect(`${PREFIX}[${text}]}`).toBe(now.text);
    }),
    { numRuns: 1000 },
  );
});

it("has no steps when the old document's unchanged runs cannot make up the new one's", () => {
  const old = documentOf(['"a"', '"b"', '"c"']);
  const now = documentOf(['"a"', '"b"', '"c"', '"d"']);
  // The change list forgot "d": the unchanged bytes fall one element short.
  expect(
    rebuildSteps(
      { cuts: [], dataStart: PREFIX.length, bytes: old.text.length },
      { cuts: [], dataStart: PREFIX.length, bytes: now.text.length },
    ),
  ).toBeNull();
  // And one too many: "c" was removed but the list does not say so.
  expect(
    rebuildSteps(
      { cuts: [], dataStart: PREFIX.length, bytes: now.text.length },
      { cuts: [], dataStart: PREFIX.length, bytes: old.text.length },
    ),
  ).toBeNull();
});
