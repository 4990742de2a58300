import type { BuildInfo } from '../middleware/data.ts';

/**
 * One resource per published build (a search index, a DuckDB store), opened off the
 * request path. While the resource of a newly published build is opening, requests are
 * answered from the previous build's resource, which stays valid (builds are immutable
 * and the previous ones are kept); only the very first request waits. Once the new one is
 * ready it replaces the old in one assignment; the old one is kept (a request still on the
 * previous build gets it, never a reopen) until `retireAll` (the build warmer, once every
 * resource of the new build is ready and the service has switched to it) or until a third
 * build's resource replaces it.
 */
export class PerBuild<T> {
  /** Every per-build resource of the process, in creation order (a store before what reads it). */
  static readonly all: PerBuild<unknown>[] = [];

  private ready: { dir: string; value: T } | undefined;
  private previous: { dir: string; value: T } | undefined;
  private opening: { dir: string; promise: Promise<T> } | undefined;

  constructor(
    private readonly open: (build: BuildInfo) => Promise<T>,
    private readonly close: (value: T) => void | Promise<void> = () => undefined,
  ) {
    PerBuild.all.push(this as PerBuild<unknown>);
  }

  /**
   * Opens every resource for `build` one after another (so their peak memory does not stack),
   * off the request path: the server calls it when a build is published, so the first
   * requests after a swap find everything ready. A resource that fails is reported and left
   * to the request path (which answers 503 for it).
   */
  static async warmAll(build: BuildInfo, onFail: (index: number, err: unknown) => void = () => undefined): Promise<void> {
    for (const [i, r] of PerBuild.all.entries()) await r.prepare(build).catch((err: unknown) => onFail(i, err));
  }

  /**
   * Closes every resource's previous-build value except `keepDir`'s, after `graceMs` (requests
   * that took it just before the switch finish first).
   */
  static retireAll(keepDir: string, graceMs = 10_000): void {
    for (const r of PerBuild.all) r.retire(keepDir, graceMs);
  }

  /** The resource for `build`, or the previous build's while this one opens. */
  async get(build: BuildInfo): Promise<T> {
    if (this.ready?.dir === build.dir) return this.ready.value;
    if (this.previous?.dir === build.dir) return this.previous.value;
    const opening = this.startOpening(build);
    if (this.ready) return this.ready.value;
    return opening;
  }

  /** Opens `build`'s resource now (e.g. when a build is published), resolving when it serves. */
  async prepare(build: BuildInfo): Promise<T> {
    if (this.ready?.dir === build.dir) return this.ready.value;
    if (this.previous?.dir === build.dir && this.ready) {
      // A roll-back to the previous build: swap, no reopen.
      [this.ready, this.previous] = [this.previous, this.ready];
      return this.ready.value;
    }
    return this.startOpening(build);
  }

  /** Which build directory is being served, for tests and metrics. */
  get servingDir(): string | undefined {
    return this.ready?.dir;
  }

  private retire(keepDir: string, graceMs: number): void {
    const old = this.previous;
    if (!old || old.dir === keepDir) return;
    this.previous = undefined;
    setTimeout(() => void Promise.resolve(this.close(old.value)).catch(() => undefined), graceMs).unref();
  }

  private startOpening(build: BuildInfo): Promise<T> {
    if (this.opening?.dir === build.dir) return this.opening.promise;
    const promise = this.open(build).then(
      async (value) => {
        const old = this.ready;
        if (this.opening?.promise === promise) this.opening = undefined;
        const evicted = this.previous;
        this.previous = old && old.dir !== build.dir ? old : undefined;
        this.ready = { dir: build.dir, value };
        if (evicted && evicted.dir !== build.dir) await this.close(evicted.value);
        return value;
      },
      (err: unknown) => {
        if (this.opening?.promise === promise) this.opening = undefined;
        throw err;
      },
    );
    // A failed background open must not crash the process; the next request retries it.
    promise.catch(() => undefined);
    this.opening = { dir: build.dir, promise };
    return promise;
  }
}
