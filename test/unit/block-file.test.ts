import { mkdtempSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BlockCache, BlockFile, BlockFileError } from '../../lib/files/block-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'block-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file of `n` bytes whose content depends on `seed` (byte i = (i·31 + seed) mod 251). */
function writeBytes(name: string, n: number, seed: number): string {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed) % 251;
  const path = join(dir, name);
  writeFileSync(path, b);
  return path;
}

describe('BlockFile', () => {
  it('reads every range as the file holds it, within a block, across blocks and longer than four blocks', () => {
    const path = writeBytes('a.bin', 10_000, 7);
    const whole = readFileSync(path);
    const cache = new BlockCache(4 * 256, 256);
    const f = BlockFile.open(path, cache);
    for (const [off, len] of [[0, 1], [100, 50], [250, 20], [255, 2], [0, 256], [700, 900], [1000, 2000], [9_990, 10], [10_000, 0]] as const) {
      expect(Buffer.compare(f.view(off, len), whole.subarray(off, off + len))).toBe(0);
      expect(Buffer.compare(f.copy(off, len), whole.subarray(off, off + len))).toBe(0);
    }
    expect(f.u32(300)).toBe(whole.readUInt32LE(300));
    expect(f.u16(511)).toBe(whole.readUInt16LE(511));
    expect(f.f64(1020)).toBe(whole.readDoubleLE(1020));
    expect(f.u8(9_999)).toBe(whole[9_999]);
    f.close();
  });

  it('holds no more blocks than its budget, and serves repeats from the cache', () => {
    const path = writeBytes('b.bin', 64 * 128, 3);
    const cache = new BlockCache(4 * 128, 128);
    expect(cache.slots).toBe(4);
    expect(cache.bytes).toBe(512);
    const f = BlockFile.open(path, cache);
    for (let k = 0; k < 64; k++) f.u8(k * 128);
    expect(cache.stats).toEqual({ hits: 0, misses: 64 });
    f.u8(63 * 128 + 5); // the last block read is still cached
    expect(cache.stats.hits).toBe(1);
    f.u8(0); // the first was evicted long ago
    expect(cache.stats.misses).toBe(65);
    f.close();
  });

  it('keeps two files on one cache apart (same block numbers, different bytes)', () => {
    const cache = new BlockCache(1024, 128);
    const f1 = BlockFile.open(writeBytes('c1.bin', 1000, 1), cache);
    const f2 = BlockFile.open(writeBytes('c2.bin', 1000, 2), cache);
    for (let off = 0; off < 1000; off += 97) {
      expect(f1.u8(off)).toBe((off * 31 + 1) % 251);
      expect(f2.u8(off)).toBe((off * 31 + 2) % 251);
    }
    f1.close();
    expect(f2.u8(500)).toBe((500 * 31 + 2) % 251); // closing one file frees its slots for the other
    f2.close();
  });

  it('refuses a read past the end, a negative or fractional offset, and reads after close', () => {
    const f = BlockFile.open(writeBytes('d.bin', 300, 4), new BlockCache(1024, 128));
    expect(() => f.view(290, 11)).toThrow(BlockFileError);
    expect(() => f.view(290, 11)).toThrow(/past the end \(the file has 300\)/);
    expect(() => f.u32(298)).toThrow(BlockFileError);
    expect(() => f.view(-1, 1)).toThrow(BlockFileError);
    expect(() => f.view(1.5, 1)).toThrow(BlockFileError);
    expect(() => f.copy(0, 301)).toThrow(BlockFileError);
    f.close();
    expect(() => f.u8(0)).toThrow(/is closed/);
    f.close(); // twice is harmless
  });

  it('a file truncated after it was opened throws on the bytes it lost, never answers from them', () => {
    const path = writeBytes('e.bin', 4096, 5);
    const cache = new BlockCache(1024, 128);
    const f = BlockFile.open(path, cache);
    expect(f.u8(10)).toBe((10 * 31 + 5) % 251);
    truncateSync(path, 1000);
    expect(() => f.u8(2000)).toThrow(/shorter than the 4096 bytes it had when opened/);
    expect(() => f.copy(0, 4096)).toThrow(BlockFileError);
    expect(f.u8(10)).toBe((10 * 31 + 5) % 251); // what it still holds is still right
    // The failed read left the cache whole: other files read on.
    const g = BlockFile.open(writeBytes('e2.bin', 600, 9), cache);
    expect(g.u8(599)).toBe((599 * 31 + 9) % 251);
    f.close();
    g.close();
  });

  it('a file renamed over the opened one answers from the opened one', () => {
    const path = writeBytes('f.bin', 2000, 6);
    const f = BlockFile.open(path, new BlockCache(256, 128));
    renameSync(writeBytes('f-new.bin', 50, 8), path);
    for (let off = 0; off < 2000; off += 111) expect(f.u8(off)).toBe((off * 31 + 6) % 251);
    expect(f.size).toBe(2000);
    f.close();
    expect(BlockFile.open(path, new BlockCache(256, 128)).size).toBe(50);
  });

  it('u32s copies 32-bit words as the file holds them, within and across blocks, through the cache and around it', () => {
    const path = writeBytes('g.bin', 10_000, 12);
    const whole = readFileSync(path);
    const cache = new BlockCache(4 * 256, 256);
    const f = BlockFile.open(path, cache);
    const out = new Uint32Array(2500);
    // 1 word, a block's end, across blocks, one block exactly, four blocks and more (read directly), the file's last word.
    for (const [off, n] of [[0, 1], [252, 2], [248, 10], [256, 64], [100, 300], [1024, 256], [0, 2500], [9_996, 1]] as const) {
      out.fill(0);
      f.u32s(off, n, out, 0);
      for (let i = 0; i < n; i++) expect(out[i], `word ${i} of ${n} at ${off}`).toBe(whole.readUInt32LE(off + 4 * i));
    }
    f.u32s(40, 3, out, 7); // at an offset into the output
    expect([...out.subarray(7, 10)]).toEqual([0, 1, 2].map((i) => whole.readUInt32LE(40 + 4 * i)));
    expect(() => f.u32s(2, 1, out)).toThrow(/not a multiple of 4/);
    expect(() => f.u32s(9_996, 2, out)).toThrow(BlockFileError);
    expect(() => f.u32s(0, 10, out, 2495)).toThrow(RangeError);
    f.close();
    expect(() => f.u32s(0, 1, out)).toThrow(/is closed/);
  });

  it('u32s never reads a remembered block from a slot since given to another block or file', () => {
    // Two slots for three files read in turn: every slot is reused all the time, and the
    // reader's memo of where its blocks were must be checked, not trusted.
    const cache = new BlockCache(2 * 64, 64);
    const files = [1, 2, 3].map((seed) => ({ seed, f: BlockFile.open(writeBytes(`h${seed}.bin`, 64 * 40, seed), cache), whole: readFileSync(join(dir, `h${seed}.bin`)) }));
    const out = new Uint32Array(1);
    for (let round = 0; round < 3; round++) {
      for (let k = 0; k < 40; k++) {
        for (const { f, whole } of files) {
          const off = ((k * 7) % 40) * 64 + 4 * (k % 16);
          f.u32s(off, 1, out);
          expect(out[0]).toBe(whole.readUInt32LE(off));
        }
      }
    }
    // Repeats of one block are served without a miss.
    const { f, whole } = files[0]!;
    f.u32s(0, 1, out);
    const misses = cache.stats.misses;
    for (let i = 0; i < 16; i++) f.u32s(4 * i, 1, out);
    expect(cache.stats.misses).toBe(misses);
    expect(out[0]).toBe(whole.readUInt32LE(60));
    files[1]!.f.close(); // its slots are freed and forgotten: the others read on
    for (const { f: g, whole: w } of [files[0]!, files[2]!]) {
      g.u32s(64 * 39, 1, out);
      expect(out[0]).toBe(w.readUInt32LE(64 * 39));
    }
  });

  it('refuses a block size the reads cannot use', () => {
    expect(() => new BlockCache(1024, 100)).toThrow(RangeError);
    expect(() => new BlockCache(1024, 32)).toThrow(RangeError);
    expect(new BlockCache(10, 64).slots).toBe(2); // at least two blocks
  });
});
