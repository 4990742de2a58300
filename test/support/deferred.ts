/** A promise resolved by hand: one side waits for another to reach a point (tests paced by events, not time). */
export function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
