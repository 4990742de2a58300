/**
 * On-disk framing shared by log segments and snapshots:
 *   file  = MAGIC (8 bytes) frame*
 *   frame = length u32 LE | crc32(payload) u32 LE | payload (UTF-8 JSON, length bytes)
 * A frame is valid only if its whole extent lies in the file and the checksum matches, so a
 * record cut short by a crash is recognised, never misread.
 */
import { crc32 } from 'node:zlib';

export const SEGMENT_MAGIC = Buffer.from('PILEDG1\n', 'latin1');
export const SNAPSHOT_MAGIC = Buffer.from('PISNAP1\n', 'latin1');
export const HEADER = 8;
/** No record comes near this; a larger length field is damage, not data. */
export const MAX_PAYLOAD = 64 * 1024 * 1024;

export function encodeFrame(payload: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(payload), 'utf8');
  const out = Buffer.allocUnsafe(HEADER + body.length);
  out.writeUInt32LE(body.length, 0);
  out.writeUInt32LE(crc32(body), 4);
  body.copy(out, HEADER);
  return out;
}

/** The frame at `pos`, or undefined when none is valid there. */
export function frameAt(buf: Buffer, pos: number): { payload: unknown; next: number } | undefined {
  if (pos + HEADER > buf.length) return undefined;
  const len = buf.readUInt32LE(pos);
  if (len === 0 || len > MAX_PAYLOAD || pos + HEADER + len > buf.length) return undefined;
  if (buf[pos + HEADER] !== 0x7b) return undefined; // every payload is a JSON object
  const body = buf.subarray(pos + HEADER, pos + HEADER + len);
  if (crc32(body) !== buf.readUInt32LE(pos + 4)) return undefined;
  try {
    return { payload: JSON.parse(body.toString('utf8')), next: pos + HEADER + len };
  } catch {
    return undefined; // checksum collision on garbage: treat as no frame
  }
}

/** First offset after `pos` where a valid frame starts, if any (used only after damage). */
export function nextValidFrame(buf: Buffer, pos: number): number | undefined {
  for (let q = pos + 1; q + HEADER < buf.length; q++) {
    if (frameAt(buf, q)) return q;
  }
  return undefined;
}
