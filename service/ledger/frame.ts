/**
 * On-disk framing shared by log segments and snapshots:
 *   file  = MAGIC (8 bytes) frame*
 *   frame = word u32 LE | check u32 LE | payload (UTF-8 JSON object)
 *   word  = payload length, top bit set on the first frame of each group-commit batch
 *   check = crc32(payload), bit-inverted on a batch's first frame (so the flag is checked too)
 * A frame is valid only if its whole extent lies in the file and the checksum matches, so a
 * record cut short by a crash is recognised, never misread. The batch flag lets recovery
 * tell damage confined to the last (unsynced) batch from damage to earlier, synced data.
 */
import { crc32 } from 'node:zlib';

export const SEGMENT_MAGIC = Buffer.from('PILEDG1\n', 'latin1');
export const SNAPSHOT_MAGIC = Buffer.from('PISNAP1\n', 'latin1');
export const HEADER = 8;
/** No record comes near this; a larger length field is damage, not data. */
export const MAX_PAYLOAD = 64 * 1024 * 1024;
const BATCH_FLAG = 0x8000_0000;

export function encodeFrame(payload: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(payload), 'utf8');
  const out = Buffer.allocUnsafe(HEADER + body.length);
  out.writeUInt32LE(body.length, 0);
  out.writeUInt32LE(crc32(body), 4);
  body.copy(out, HEADER);
  return out;
}

/** Marks an encoded frame (in place) as the first of a batch. */
export function markBatchStart(frame: Buffer): void {
  frame.writeUInt32LE((frame.readUInt32LE(0) | BATCH_FLAG) >>> 0, 0);
  frame.writeUInt32LE(~frame.readUInt32LE(4) >>> 0, 4);
}

export interface Frame {
  payload: unknown;
  next: number;
  batchStart: boolean;
}

/** The frame at `pos`, or undefined when none is valid there. */
export function frameAt(buf: Buffer, pos: number): Frame | undefined {
  if (pos + HEADER > buf.length) return undefined;
  const word = buf.readUInt32LE(pos);
  const batchStart = (word & BATCH_FLAG) !== 0;
  const len = (word & ~BATCH_FLAG) >>> 0;
  if (len === 0 || len > MAX_PAYLOAD || pos + HEADER + len > buf.length) return undefined;
  if (buf[pos + HEADER] !== 0x7b) return undefined; // every payload is a JSON object
  const body = buf.subarray(pos + HEADER, pos + HEADER + len);
  const check = buf.readUInt32LE(pos + 4);
  if ((batchStart ? ~check >>> 0 : check) !== crc32(body)) return undefined;
  try {
    return { payload: JSON.parse(body.toString('utf8')), next: pos + HEADER + len, batchStart };
  } catch {
    return undefined; // checksum collision on garbage: treat as no frame
  }
}

/**
 * After damage at `pos`: the offset of a valid batch-start frame somewhere later, if any.
 * Valid frames that are not batch starts may follow damage inside the last batch (a power
 * cut can persist a later page of a write but not an earlier one); a later batch start
 * means a whole batch was written after the damaged one was synced.
 */
export function laterBatchStart(buf: Buffer, pos: number): number | undefined {
  let q = pos + 1;
  while (q + HEADER < buf.length) {
    const f = frameAt(buf, q);
    if (!f) {
      q++;
      continue;
    }
    if (f.batchStart) return q;
    q = f.next;
  }
  return undefined;
}
