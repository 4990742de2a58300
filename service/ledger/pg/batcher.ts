/**
 * Client-side group commit (ADR 0013): calls of one kind (rate hit, hold, charge, key lookup)
 * made while a batch of that kind is in flight wait and go together as the next batch, one
 * statement and one round trip for all of them. Nothing waits on a timer: a call made when
 * the kind is idle goes at the end of the current event-loop turn (with whatever else that
 * turn queued), so a lone request pays no added delay, and under load a batch holds what
 * arrived while the previous one ran. Each call is answered only when its batch's statement
 * has returned (for a charge: committed, so durable); a batch that fails rejects every call
 * in it with the same error (one statement, one transaction: none of it took effect).
 */
export interface BatcherOptions {
  /**
   * Batches of this kind in flight at once (default 2: while one waits for its commit the
   * next is already on its way; 1 gives larger batches but, with few requests at once, less
   * throughput for barely less PostgreSQL CPU; ADR 0013).
   */
  inFlight?: number;
  /** Calls per batch at most (default 256). */
  maxBatch?: number;
}

interface Waiting<I, O> {
  item: I;
  resolve: (o: O) => void;
  reject: (e: unknown) => void;
}

export class Batcher<I, O> {
  private readonly queue: Waiting<I, O>[] = [];
  private running = 0;
  private scheduled = false;
  private readonly inFlight: number;
  private readonly maxBatch: number;

  /** `send` answers the items of one batch in their order (one answer per item). */
  constructor(
    private readonly send: (items: I[]) => Promise<O[]>,
    opts: BatcherOptions = {},
  ) {
    this.inFlight = opts.inFlight ?? 2;
    this.maxBatch = opts.maxBatch ?? 256;
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.running < this.inFlight && !this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  private pump(): void {
    while (this.running < this.inFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.running++;
      this.send(batch.map((w) => w.item))
        .then(
          (outs) => {
            if (outs.length !== batch.length) throw new Error(`batch of ${batch.length} answered ${outs.length}`);
            batch.forEach((w, j) => w.resolve(outs[j]!));
          },
          (e: unknown) => batch.forEach((w) => w.reject(e)),
        )
        .catch((e: unknown) => batch.forEach((w) => w.reject(e)))
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }
}

/** Rows numbered `i` (1-based, as the *_many functions and queries answer) put back in item order; missing ones undefined. */
export function byIndex<R extends { i: number }>(rows: R[], n: number): (R | undefined)[] {
  const out: (R | undefined)[] = new Array<R | undefined>(n).fill(undefined);
  for (const r of rows) out[r.i - 1] = r;
  return out;
}
