/**
 * k-way merge of sorted runs with a binary min-heap of each run's current item: what the build's
 * external sorts (spill.ts for profiles, id-sort.ts for ids) read their runs back through. Pulls
 * one item at a time from each run, so memory holds one item per run.
 */
export function* mergeSorted<T>(runs: Iterable<Iterator<T>>, compare: (a: T, b: T) => number): Generator<T> {
  const heap: { item: T; run: Iterator<T> }[] = [];
  const less = (i: number, j: number) => compare(heap[i]!.item, heap[j]!.item) < 0;
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      let m = i;
      if (l < heap.length && less(l, m)) m = l;
      if (l + 1 < heap.length && less(l + 1, m)) m = l + 1;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (const run of runs) {
    const first = run.next();
    if (!first.done) heap.push({ item: first.value, run });
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  while (heap.length) {
    const top = heap[0]!;
    yield top.item;
    const next = top.run.next();
    if (next.done) {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    } else top.item = next.value;
    if (heap.length) down(0);
  }
}
