/**
 * The pure logic of the national bench (bench/national.ts): reading memory from /proc's text,
 * the open-loop rate at a share of flat out, and whether memory came back to its level after a
 * swap. Fixed inputs with the answers worked out by hand, then the same readers on this
 * process's own /proc.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { backToLevel, machineInUseMb, memInUse, parseKbFields, parseSmapsRollup, processShare, rssMb } from '../../bench/support/meminfo.ts';
import { failuresByKind, type EndpointTable } from '../../bench/support/national-serving.ts';
import { pacedRate } from '../../bench/support/stats.ts';

const MEMINFO = `MemTotal:       24684084 kB
MemFree:        10506192 kB
MemAvailable:   18225792 kB
Buffers:           31752 kB
Active(anon):     123456 kB
HugePages_Total:       0
`;

const ROLLUP = `563e350b1000-7ffdca401000 ---p 00000000 00:00 0                          [rollup]
Rss:             2097152 kB
Pss:             1048576 kB
Pss_Anon:         786432 kB
Pss_File:         262144 kB
Shared_Clean:     524288 kB
Shared_Dirty:     524288 kB
Private_Clean:         0 kB
Private_Dirty:   1048576 kB
`;

describe('meminfo', () => {
  it('reads every "Key: n kB" line as bytes, including keys with parentheses, and skips lines without kB', () => {
    const f = parseKbFields(MEMINFO);
    expect(f.MemTotal).toBe(24684084 * 1024);
    expect(f['Active(anon)']).toBe(123456 * 1024);
    expect(f.HugePages_Total).toBeUndefined();
  });

  it('memory in use is MemTotal − MemAvailable', () => {
    expect(memInUse(MEMINFO)).toEqual({ total: 24684084 * 1024, available: 18225792 * 1024, in_use: (24684084 - 18225792) * 1024 });
  });

  it('a meminfo without MemAvailable is a clear error, not a wrong number', () => {
    expect(() => memInUse('MemTotal:  1000 kB\nMemFree:  10 kB\n')).toThrow(/MemAvailable/);
    expect(() => memInUse('')).toThrow(/MemTotal or MemAvailable/);
  });

  it('a process share from smaps_rollup, in MB: shared is clean + dirty, private likewise', () => {
    expect(parseSmapsRollup(ROLLUP)).toEqual({ rss_mb: 2048, pss_mb: 1024, pss_anon_mb: 768, pss_file_mb: 256, shared_mb: 1024, private_mb: 1024 });
  });

  it('an smaps_rollup without Rss or Pss is a clear error; absent optional fields read as 0', () => {
    expect(() => parseSmapsRollup('Pss_Anon: 10 kB\n')).toThrow(/Rss or Pss/);
    expect(parseSmapsRollup('Rss: 1024 kB\nPss: 1024 kB\n')).toEqual({ rss_mb: 1, pss_mb: 1, pss_anon_mb: 0, pss_file_mb: 0, shared_mb: 0, private_mb: 0 });
  });

  it('this process: RSS and Pss read from its own /proc, Pss no more than RSS; a process that is not there reads as undefined', () => {
    const share = processShare(process.pid)!;
    expect(share.rss_mb).toBeGreaterThan(0);
    expect(share.pss_mb).toBeLessThanOrEqual(share.rss_mb);
    expect(rssMb(process.pid)).toBeGreaterThan(0);
    // Above the kernel's largest pid (pid_max is at most 2^22).
    expect(processShare(2 ** 23)).toBeUndefined();
    expect(rssMb(2 ** 23)).toBeUndefined();
    // The machine's memory in use: more than this process's own RSS, less than all of it.
    expect(machineInUseMb()).toBeGreaterThanOrEqual(rssMb(process.pid)!);
    expect(machineInUseMb()).toBeLessThan(Math.round(parseKbFields(readFileSync('/proc/meminfo', 'utf8')).MemTotal! / 2 ** 20));
  });
});

describe('pacedRate', () => {
  it('is the share of flat out, to the hundredth', () => {
    expect(pacedRate(1000, 0.25)).toBe(250);
    expect(pacedRate(913.57, 0.25)).toBe(228.39);
    expect(pacedRate(80, 1)).toBe(80);
  });

  it('refuses a flat out that was not measured and a share outside (0, 1]', () => {
    expect(() => pacedRate(0, 0.25)).toThrow(/flat out was 0/);
    expect(() => pacedRate(NaN, 0.25)).toThrow(/flat out was NaN/);
    expect(() => pacedRate(Infinity, 0.25)).toThrow(/flat out/);
    expect(() => pacedRate(100, 0)).toThrow(/share/);
    expect(() => pacedRate(100, 1.5)).toThrow(/share/);
  });
});

describe('backToLevel', () => {
  it('after is at most `tolerance` above before, or below it', () => {
    expect(backToLevel(1000, 1100, 100)).toBe(true);
    expect(backToLevel(1000, 1101, 100)).toBe(false);
    expect(backToLevel(1000, 600, 100)).toBe(true);
  });

  it('an after that was not measured is not back to level', () => {
    expect(backToLevel(1000, NaN, 100)).toBe(false);
    expect(backToLevel(NaN, 1000, 100)).toBe(false);
  });
});

describe('failuresByKind: a swap\'s failed requests by what failed them', () => {
  const ep = (non2xx: Record<string, number>, socket: Record<string, number>) => ({ non2xx, socket_errors: socket }) as unknown as EndpointTable[string];
  it('sums each kind over endpoints and runs; socket errors prefixed; nothing failed gives none', () => {
    const runs = [
      { a: ep({ '503 ledger_unavailable': 2, '503 data_unavailable': 1 }, { TIMEOUT: 3 }), b: ep({ '503 ledger_unavailable': 1 }, {}) },
      { a: ep({}, { TIMEOUT: 1, ECONNRESET: 2 }), b: ep({ '500 internal': 1 }, {}) },
    ];
    expect(failuresByKind(runs)).toEqual({ '503 ledger_unavailable': 3, '503 data_unavailable': 1, 'socket TIMEOUT': 4, 'socket ECONNRESET': 2, '500 internal': 1 });
    expect(failuresByKind([{ a: ep({}, {}) }])).toEqual({});
    expect(failuresByKind([])).toEqual({});
  });
});
