/**
 * The first `k` items of `items` in `cmp` order, sorted, without sorting the rest: a page of
 * a long ranked list (a 2 km radius holds thousands of sales; a page shows 10 to 50) costs
 * n log k, not n log n. The same answer as `[...items].sort(cmp).slice(0, k)` for a total
 * order (callers break ties down to a unique key). Pure.
 */
export function topK<T>(items: ArrayLike<T>, k: number, cmp: (a: T, b: T) => number): T[] {
  if (k <= 0) return [];
  if (items.length <= k * 4) return Array.from(items).sort(cmp).slice(0, k);
  // A max-heap (by cmp) of the best k seen: its root is the worst of them.
  const heap: T[] = [];
  const up = (j: number) => {
    while (j > 0) {
      const p = (j - 1) >> 1;
      if (cmp(heap[j]!, heap[p]!) <= 0) break;
      [heap[j], heap[p]] = [heap[p]!, heap[j]!];
      j = p;
    }
  };
  const down = (j: number) => {
    for (;;) {
      const l = 2 * j + 1, r = l + 1;
      let m = j;
      if (l < heap.length && cmp(heap[l]!, heap[m]!) > 0) m = l;
      if (r < heap.length && cmp(heap[r]!, heap[m]!) > 0) m = r;
      if (m === j) return;
      [heap[j], heap[m]] = [heap[m]!, heap[j]!];
      j = m;
    }
  };
  for (let n = 0; n < items.length; n++) {
    const x = items[n]!;
    if (heap.length < k) {
      heap.push(x);
      up(heap.length - 1);
    } else if (cmp(x, heap[0]!) < 0) {
      heap[0] = x;
      down(0);
    }
  }
  return heap.sort(cmp);
}
