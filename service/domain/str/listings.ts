/**
 * GET /str/listings: the order and the page of the selected listings. Pure: the caller gives
 * each listing's sort figure (NaN when it has none) and id.
 */

/**
 * Positions of `figure` in answer order: highest first (`descending`) or lowest first (distance),
 * a listing without the figure (NaN) last, ties by id so a page is stable.
 */
export function listingOrder(figure: ArrayLike<number>, ids: readonly string[], descending: boolean): number[] {
  const order = Array.from({ length: figure.length }, (_, k) => k);
  const cmpId = (a: number, b: number) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0);
  return order.sort((a, b) => {
    const x = figure[a]!, y = figure[b]!;
    const nx = Number.isNaN(x), ny = Number.isNaN(y);
    if (nx || ny) return nx === ny ? cmpId(a, b) : nx ? 1 : -1;
    if (x !== y) return descending ? y - x : x - y;
    return cmpId(a, b);
  });
}

/** Rounded to about 100 m (3 decimals of a degree): the source jitters points anyway. */
export const roundPosition = (deg: number): number => Math.round(deg * 1000) / 1000;
