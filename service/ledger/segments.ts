/**
 * Reading the ledger directory: segment files `log-<n>.seg` and the snapshot `snapshot.bin`.
 *
 * Damage rules. A crash can only damage the last group-commit batch (appends are the only
 * writes, and a batch is written only after the previous one is synced). So damage with no
 * batch start anywhere after it is a torn tail: it is dropped (the file is truncated at the
 * first bad frame); those records were never acknowledged. Damage followed by a later batch
 * cannot come from a crash; it is corruption, and opening refuses with the file and offset
 * rather than guess which records to trust.
 */
import { open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HEADER, SEGMENT_MAGIC, SNAPSHOT_MAGIC, frameAt, laterBatchStart } from './frame.ts';
import { isRecord, type LedgerRecord } from './records.ts';
import type { SnapshotState } from './state.ts';

export const SNAPSHOT_FILE = 'snapshot.bin';

export class LedgerCorruptError extends Error {
  override readonly name = 'LedgerCorruptError';
  readonly code = 'ledger_corrupt';
}

export const segmentName = (n: number) => `log-${String(n).padStart(12, '0')}.seg`;

/** Segment numbers present in `dir`, ascending. */
export async function listSegments(dir: string): Promise<number[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .map((n) => /^log-(\d{12})\.seg$/.exec(n)?.[1])
    .filter((x): x is string => x !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

export interface SegmentScan {
  records: LedgerRecord[];
  /** Length of the valid prefix: where appends continue. */
  validLength: number;
  /** Bytes of torn tail found past `validLength` (0 when the file ended cleanly). */
  tornBytes: number;
  /** The file is shorter than its header (a crash while the segment was being created). */
  headerTorn: boolean;
}

export function scanSegmentBuffer(buf: Buffer, name: string): SegmentScan {
  if (buf.length < HEADER && SEGMENT_MAGIC.subarray(0, buf.length).equals(buf)) {
    return { records: [], validLength: 0, tornBytes: buf.length, headerTorn: true };
  }
  if (!buf.subarray(0, HEADER).equals(SEGMENT_MAGIC)) throw new LedgerCorruptError(`${name}: not a ledger segment (bad magic)`);
  const records: LedgerRecord[] = [];
  let pos = HEADER;
  while (pos < buf.length) {
    const f = frameAt(buf, pos);
    if (!f) {
      const later = laterBatchStart(buf, pos);
      if (later !== undefined) {
        throw new LedgerCorruptError(
          `${name}: damaged record at byte ${pos} followed by a later batch at byte ${later}; this is not a torn tail, ` +
            'so the ledger refuses to open. Restore the directory from a backup, or inspect the file before truncating it.',
        );
      }
      return { records, validLength: pos, tornBytes: buf.length - pos, headerTorn: false };
    }
    if (!isRecord(f.payload)) throw new LedgerCorruptError(`${name}: unknown record type at byte ${pos}`);
    records.push(f.payload);
    pos = f.next;
  }
  return { records, validLength: pos, tornBytes: 0, headerTorn: false };
}

export async function scanSegment(dir: string, n: number): Promise<SegmentScan> {
  return scanSegmentBuffer(await readFile(join(dir, segmentName(n))), segmentName(n));
}

export interface Snapshot {
  /** The state covers every record in segments before this one. */
  segment: number;
  at: string;
  state: SnapshotState;
}

export async function readSnapshot(dir: string): Promise<Snapshot | undefined> {
  let buf: Buffer;
  try {
    buf = await readFile(join(dir, SNAPSHOT_FILE));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  // Written by rename after fsync, so it is whole or absent: any damage is corruption.
  const f = buf.subarray(0, HEADER).equals(SNAPSHOT_MAGIC) ? frameAt(buf, HEADER) : undefined;
  if (!f || f.next !== buf.length) throw new LedgerCorruptError(`${SNAPSHOT_FILE}: damaged snapshot (checksum or length mismatch)`);
  return f.payload as Snapshot;
}

/**
 * Every record in the directory in log order, read-only and without the lock (for tests,
 * audits and tools). Records before the snapshot's segment have been compacted away.
 */
export async function readLogRecords(dir: string): Promise<{ snapshot: Snapshot | undefined; records: LedgerRecord[] }> {
  const snapshot = await readSnapshot(dir);
  const records: LedgerRecord[] = [];
  for (const n of await listSegments(dir)) {
    if (snapshot && n < snapshot.segment) continue;
    records.push(...(await scanSegment(dir, n)).records);
  }
  return { snapshot, records };
}

/** fsync a directory so a create, rename or unlink in it is durable. */
export async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
