/** The build's one k-way merge (src/node/catalog/build/merge-sorted.ts), used by spill.ts and id-sort.ts. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mergeSorted } from "../../src/node/catalog/build/merge-sorted";

const byNumber = (a: number, b: number) => a - b;

describe("mergeSorted", () => {
  it("yields every item of the sorted runs in order, whatever their number and lengths", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 20 }), { maxLength: 12 }),
        (runs) => {
          const sorted = runs.map((run) => [...run].sort(byNumber));
          const merged = [
            ...mergeSorted(
              sorted.map((run) => run.values()),
              byNumber,
            ),
          ];
          expect(merged).toEqual(sorted.flat().sort(byNumber));
        },
      ),
    );
  });

  it("reads one item of each run before the first answer, then one more per answer", () => {
    const pulled: number[] = [];
    const run = function* (id: number, values: number[]) {
      for (const value of values) {
        pulled.push(id);
        yield value;
      }
    };
    const merge = mergeSorted([run(0, [1, 4, 5]), run(1, [2, 3])], byNumber);
    expect(merge.next().value).toBe(1);
    expect(pulled).toEqual([0, 1]);
    expect(merge.next().value).toBe(2);
    expect(pulled).toEqual([0, 1, 0]);
    expect([...merge]).toEqual([3, 4, 5]);
  });
});
