/**
 * Appends records to the current segment with group commit: records queued while a write
 * and fsync are in flight go out together in the next single write + fdatasync, and every
 * one of their promises resolves only after that fsync. Order on disk is queue order.
 *
 * Rotation (for snapshots) is a queue entry too: everything queued before it is durable in
 * the old segment, then a new segment is created and the snapshot (the state as of that
 * point, serialised when the rotation was queued) is written atomically, then the old
 * segments are deleted. Records queued after it go to the new segment.
 *
 * A failed write or fsync poisons the writer: after an fsync error the kernel may have
 * dropped the dirty pages, so retrying could acknowledge data that is not on disk. The
 * ledger recovers by closing it, cutting the segment back to `durable` (the end of the last
 * batch whose fsync succeeded) and opening a new writer (file-ledger.ts).
 */
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeFrame, markBatchStart, SEGMENT_MAGIC, SNAPSHOT_MAGIC } from './frame.ts';
import { SNAPSHOT_FILE, listSegments, segmentName, syncDir } from './segments.ts';

type Entry =
  | { kind: 'rec'; buf: Buffer; done: Settle }
  | { kind: 'rotate'; segment: number; snapshot: Buffer; done: Settle };

interface Settle {
  resolve: () => void;
  reject: (e: Error) => void;
}

export class LogWriter {
  private queue: Entry[] = [];
  private running: Promise<void> | undefined;
  private failed: Error | undefined;
  /** End of the last acknowledged (fsynced) batch: what survives, whatever happens after. */
  private durablePos: { segment: number; size: number };
  /** Counters for metrics and the benchmark. */
  readonly stats = { batches: 0, records: 0, fsyncs: 0 };

  private constructor(
    private readonly dir: string,
    private fh: FileHandle,
    private size: number,
    private segment: number,
  ) {
    this.durablePos = { segment, size };
  }

  /** Opens segment `n` for appending at `size`, creating it (header + fsync) if new. */
  static async open(dir: string, n: number, size: number): Promise<LogWriter> {
    if (size === 0) {
      const fh = await open(join(dir, segmentName(n)), 'w', 0o600);
      try {
        await fh.write(SEGMENT_MAGIC, 0, SEGMENT_MAGIC.length, 0);
        await fh.datasync();
        await syncDir(dir);
      } catch (e) {
        await fh.close().catch(() => undefined);
        throw e;
      }
      return new LogWriter(dir, fh, SEGMENT_MAGIC.length, n);
    }
    return new LogWriter(dir, await open(join(dir, segmentName(n)), 'r+'), size, n);
  }

  get currentSegment(): number {
    return this.segment;
  }

  get error(): Error | undefined {
    return this.failed;
  }

  get durable(): { segment: number; size: number } {
    return { ...this.durablePos };
  }

  append(record: unknown): Promise<void> {
    const buf = encodeFrame(record);
    return this.enqueue((done) => ({ kind: 'rec', buf, done }));
  }

  /** Queues a rotation to segment `next` with `snapshot` (state covering all earlier records). */
  rotate(next: number, snapshot: unknown): Promise<void> {
    const buf = Buffer.concat([SNAPSHOT_MAGIC, encodeFrame(snapshot)]);
    return this.enqueue((done) => ({ kind: 'rotate', segment: next, snapshot: buf, done }));
  }

  /** Resolves when everything queued so far is durable. */
  async drain(): Promise<void> {
    while (this.running) await this.running;
    if (this.failed) throw this.failed;
  }

  async close(): Promise<void> {
    await this.drain().catch(() => {});
    await this.fh.close().catch((e: Error) => {
      if (!this.failed) throw e; // a poisoned writer's handle may fail to close too (EIO)
    });
  }

  private enqueue(make: (done: Settle) => Entry): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise<void>((resolve, reject) => {
      this.queue.push(make({ resolve, reject }));
      this.running ??= this.run().finally(() => (this.running = undefined));
    });
  }

  private async run(): Promise<void> {
    while (this.queue.length > 0) {
      const cut = this.queue.findIndex((e) => e.kind === 'rotate');
      const batch = this.queue.splice(0, cut === -1 ? this.queue.length : cut || 1);
      try {
        if (batch[0]?.kind === 'rotate') await this.doRotate(batch[0].segment, batch[0].snapshot);
        else await this.writeBatch(batch);
      } catch (e) {
        this.failed = new Error(`ledger write failed: ${(e as Error).message}`);
        for (const en of [...batch, ...this.queue.splice(0)]) en.done.reject(this.failed);
        return;
      }
      for (const en of batch) en.done.resolve();
    }
  }

  private async writeBatch(batch: Entry[]): Promise<void> {
    markBatchStart((batch[0] as { buf: Buffer }).buf);
    const buf = batch.length === 1 ? (batch[0] as { buf: Buffer }).buf : Buffer.concat(batch.map((e) => (e as { buf: Buffer }).buf));
    let off = 0;
    while (off < buf.length) {
      const { bytesWritten } = await this.fh.write(buf, off, buf.length - off, this.size + off);
      off += bytesWritten;
    }
    this.size += buf.length;
    await this.fh.datasync();
    this.durablePos = { segment: this.segment, size: this.size };
    this.stats.batches++;
    this.stats.fsyncs++;
    this.stats.records += batch.length;
  }

  private async doRotate(next: number, snapshot: Buffer): Promise<void> {
    const fresh = await LogWriter.open(this.dir, next, 0);
    await this.fh.close();
    this.fh = fresh.fh;
    this.size = fresh.size;
    this.segment = next;
    this.durablePos = { segment: next, size: fresh.size };
    const tmp = join(this.dir, `${SNAPSHOT_FILE}.tmp`);
    const sf = await open(tmp, 'w', 0o600);
    try {
      await sf.writeFile(snapshot);
      await sf.datasync();
    } finally {
      await sf.close();
    }
    await rename(tmp, join(this.dir, SNAPSHOT_FILE));
    await syncDir(this.dir);
    for (const n of await listSegments(this.dir)) if (n < next) await unlink(join(this.dir, segmentName(n)));
  }
}
