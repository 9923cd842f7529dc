import { expectDefined } from "../../../common/expect";

/**
 * k-way merge of sorted runs with a binary min-heap of each run's current item: what the build's
 * external sorts (spill.ts for profiles, id-sort.ts for ids) read their runs back through. Pulls
 * one item at a time from each run, so memory holds one item per run.
 */
export function* mergeSorted<T>(runs: Iterable<Iterator<T>>, compare: (a: T, b: T) => number): Generator<T> {
  const heap: { item: T; run: Iterator<T> }[] = [];
  // Sifts heap[i] down: it swaps with its smaller child until neither child is smaller.
  const down = (i: number) => {
    const entry = expectDefined(heap[i], "an entry at a heap position below the heap's length");
    for (;;) {
      const l = 2 * i + 1;
      let m = i;
      let smallest = entry;
      const left = heap[l];
      if (left && compare(left.item, smallest.item) < 0) [m, smallest] = [l, left];
      const right = heap[l + 1];
      if (right && compare(right.item, smallest.item) < 0) [m, smallest] = [l + 1, right];
      if (m === i) return;
      heap[i] = smallest;
      heap[m] = entry;
      i = m;
    }
  };
  for (const run of runs) {
    const first = run.next();
    if (!first.done) heap.push({ item: first.value, run });
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  for (let top = heap[0]; top; top = heap[0]) {
    yield top.item;
    const next = top.run.next();
    if (next.done) {
      const last = heap.pop();
      if (last && heap.length) heap[0] = last;
    } else top.item = next.value;
    if (heap.length) down(0);
  }
}
