import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateRegion } from '../../../etl/synth/generate.ts';
import { DEFAULT_TODAY } from '../../../etl/synth/params.ts';
import { lastCompleteMonth, todayForEndMonth } from '../../../etl/synth/time.ts';
import { tempDir } from '../../support/tmp.ts';

/**
 * The synthetic region can end at a given month (`--end-month`, docs/synthetic-region.md):
 * Price Paid's latest month is that month, and the default (2025-08) keeps the bytes the
 * generator wrote before the option existed (today 2025-09-30).
 */
const tmp = tempDir('pi-synth-end-');
afterAll(tmp.cleanup);

/**
 * The latest YYYY-MM of the transfer dates in a region's Price Paid files, read from the CSV
 * text; the planted bad rows (street PLANTED ROAD, refused by staging: planted.ts) left out.
 */
function latestSaleMonth(dir: string): string {
  let latest = '';
  for (const f of ['ppd/pp-complete.csv', 'ppd/pp-monthly-update.csv']) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      const m = /^"[^"]*","[^"]*","(\d{4}-\d{2})-\d{2} 00:00"/.exec(line);
      if (m && !line.includes('PLANTED') && m[1]! > latest) latest = m[1]!;
    }
  }
  return latest;
}

describe('synthetic region: --end-month', () => {
  it('the generator\'s today is the last day of the month after the end month', () => {
    expect(todayForEndMonth('2025-08')).toBe(DEFAULT_TODAY);
    expect(todayForEndMonth('2024-01')).toBe('2024-02-29');
    expect(todayForEndMonth('2025-11')).toBe('2025-12-31');
    expect(todayForEndMonth('2025-12')).toBe('2026-01-31');
    for (const bad of ['2025-13', '2025-8', '2025-08-01', '']) expect(() => todayForEndMonth(bad), bad).toThrow(/end month must be YYYY-MM/);
  });

  it('last-complete is the month before the clock\'s, across a year end', () => {
    expect(lastCompleteMonth(new Date('2026-11-28T12:00:00Z'))).toBe('2026-10');
    expect(lastCompleteMonth(new Date('2026-01-01T00:00:00Z'))).toBe('2025-12');
    expect(lastCompleteMonth(new Date('2026-03-31T23:59:59Z'))).toBe('2026-02');
  });

  it('Price Paid ends in the end month; the default end month writes the default bytes', async () => {
    const base = await generateRegion({ out: join(tmp.dir, 'default'), addresses: 300, seed: 7 });
    const same = await generateRegion({ out: join(tmp.dir, 'aug'), addresses: 300, seed: 7, endMonth: '2025-08' });
    expect(same.manifest.files).toEqual(base.manifest.files);
    expect(latestSaleMonth(join(tmp.dir, 'aug'))).toBe('2025-08');
    const early = await generateRegion({ out: join(tmp.dir, 'mar24'), addresses: 300, seed: 7, endMonth: '2024-03' });
    expect(early.manifest.today).toBe('2024-04-30');
    expect(latestSaleMonth(join(tmp.dir, 'mar24'))).toBe('2024-03');
  });

  it('refuses a bad end month, and an end month given with a today', async () => {
    await expect(generateRegion({ out: tmp.dir, addresses: 10, seed: 1, endMonth: '2025-00' })).rejects.toThrow(/end month must be YYYY-MM/);
    await expect(generateRegion({ out: tmp.dir, addresses: 10, seed: 1, endMonth: '2025-08', today: '2025-09-30' })).rejects.toThrow(/not both/);
  });
});
