/**
 * One per-build resource (a search index, a DuckDB store, a valuation model), opened at most
 * once: the first `get` starts the open and every caller until it settles shares that promise.
 * A failed open is forgotten, so a later request retries it (a build published without one
 * of its files answers 503 for what needs it, and serves the rest).
 */
export interface Resource {
  readonly name: string;
  get(): Promise<unknown>;
  close(): Promise<void>;
}

export class Lazy<T> implements Resource {
  private opening: Promise<T> | undefined;
  private closed = false;
  /** The opened value, for synchronous readers (metrics); undefined until an open has succeeded. */
  private value: T | undefined;

  constructor(
    readonly name: string,
    private readonly open: () => Promise<T>,
    private readonly dispose: (value: T) => void | Promise<void> = () => undefined,
  ) {}

  get(): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`${this.name}: the build's resources are closed`));
    if (!this.opening) {
      const p = this.open();
      this.opening = p;
      p.then(
        (v) => {
          if (this.opening === p) this.value = v;
        },
        () => {
          if (this.opening === p) this.opening = undefined;
        },
      );
    }
    return this.opening;
  }

  /** The value if an open has succeeded, without waiting. */
  peek(): T | undefined {
    return this.value;
  }

  /** Whether an open has succeeded (for tests and the warmer's log). */
  async isOpen(): Promise<boolean> {
    if (!this.opening) return false;
    return this.opening.then(
      () => true,
      () => false,
    );
  }

  /** Releases the value if it was opened; later `get`s fail. */
  async close(): Promise<void> {
    this.closed = true;
    const p = this.opening;
    this.opening = undefined;
    this.value = undefined;
    if (!p) return;
    const value = await p.catch(() => undefined);
    if (value !== undefined) await this.dispose(value);
  }
}
