import { GrowableBytes } from '../../../../lib/files/sections-file.ts';

/** Strings as one UTF-8 blob and offsets (string i is bytes[off[i] .. off[i+1])): the index's postcodes and vocabulary. */
export function stringTable(list: readonly string[]): { off: Uint32Array; bytes: Uint8Array } {
  const off = new Uint32Array(list.length + 1);
  const blob = new GrowableBytes();
  list.forEach((s, i) => {
    blob.push(s);
    off[i + 1] = blob.length;
  });
  return { off, bytes: blob.bytes() };
}
