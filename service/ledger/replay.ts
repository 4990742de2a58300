/**
 * Opening a file ledger's directory: the state as the directory holds it (the snapshot, then
 * every later segment replayed in order), the torn tail of the last segment cut off, and
 * where appends continue.
 */
import { open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { LedgerCorruptError, SNAPSHOT_FILE, listSegments, readSnapshot, scanSegment, segmentName, syncDir } from './segments.ts';
import { LedgerState } from './state.ts';

export interface OpenReport {
  snapshotSegment: number | null;
  segmentsReplayed: number;
  recordsReplayed: number;
  /** Bytes of torn tail dropped from the last segment. */
  tornBytesDropped: number;
}

/**
 * The state as the directory holds it: the snapshot, then every later segment replayed in
 * order; a torn tail of the last segment is cut off for good. Also where appends continue.
 */
export async function loadDir(dir: string): Promise<{ state: LedgerState; report: OpenReport; tail: { n: number; size: number } }> {
  const snap = await readSnapshot(dir);
  await unlink(join(dir, `${SNAPSHOT_FILE}.tmp`)).catch(() => {});
  const state = snap ? LedgerState.fromSnapshot(snap.state) : new LedgerState();
  const first = snap?.segment ?? 1;
  const segs = (await listSegments(dir)).filter((n) => n >= first);
  const report: OpenReport = { snapshotSegment: snap?.segment ?? null, segmentsReplayed: 0, recordsReplayed: 0, tornBytesDropped: 0 };
  let tail = { n: first, size: 0 };
  for (const [i, n] of segs.entries()) {
    if (n !== first + i) throw new LedgerCorruptError(`${dir}: segment ${segmentName(first + i)} is missing`);
    const scan = await scanSegment(dir, n);
    const last = i === segs.length - 1;
    if (scan.tornBytes > 0 && !last) {
      throw new LedgerCorruptError(`${segmentName(n)}: damaged end in a segment that is not the last one`);
    }
    for (const [j, rec] of scan.records.entries()) {
      try {
        state.apply(rec);
      } catch (e) {
        throw new LedgerCorruptError(`${segmentName(n)}: record ${j} (${rec.t}) cannot be applied: ${(e as Error).message}`);
      }
    }
    report.segmentsReplayed++;
    report.recordsReplayed += scan.records.length;
    if (scan.tornBytes > 0) {
      // Unacknowledged by construction (its fsync never completed): drop it for good.
      await truncateFile(join(dir, segmentName(n)), scan.validLength);
      report.tornBytesDropped = scan.tornBytes;
    }
    tail = { n, size: scan.validLength };
  }
  if (report.tornBytesDropped > 0) await syncDir(dir);
  for (const n of await listSegments(dir)) if (n < first) await unlink(join(dir, segmentName(n)));
  return { state, report, tail };
}

async function truncateFile(path: string, size: number): Promise<void> {
  const fh = await open(path, 'r+');
  try {
    await fh.truncate(size);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Cuts the log back to an acknowledged position: later segments deleted, that segment truncated, the directory synced. */
export async function cutBackTo(dir: string, pos: { segment: number; size: number }): Promise<void> {
  for (const n of await listSegments(dir)) if (n > pos.segment) await unlink(join(dir, segmentName(n)));
  await truncateFile(join(dir, segmentName(pos.segment)), pos.size);
  await syncDir(dir);
}
