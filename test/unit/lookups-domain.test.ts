import { describe, expect, it } from 'vitest';
import { certificateExpiry, growthOver, pageSlice, pickIndexLevel, priceToday, share, similarity } from '../../service/domain/lookups.ts';
import { monthNo, monthText } from '../../schemas/months.ts';

describe('lookup rules', () => {
  it('growth over N years is the last index over the one 12·N months before, null when the series is shorter or has a gap there', () => {
    const s = Array.from({ length: 121 }, (_, i) => 100 * 1.01 ** i);
    expect(growthOver(s, 1)).toBeCloseTo(1.01 ** 12 - 1, 4);
    expect(growthOver(s, 10)).toBeCloseTo(1.01 ** 120 - 1, 4);
    expect(growthOver(s.slice(60), 10)).toBeNull();
    expect(growthOver([null, ...s.slice(1)], 10)).toBeNull();
  });

  it('the index level: the asked area when it has enough sales, else the first wider one that has, else the widest (saying it is thin)', () => {
    const a = { level: 'sector', code: 'BS1 4', enough: false };
    const b = { level: 'outcode', code: 'BS1', enough: true };
    const c = { level: 'district', code: 'E06000023', enough: true };
    expect(pickIndexLevel([{ ...a, enough: true }, b])).toEqual({ used: { ...a, enough: true }, widened: false, enough: true });
    expect(pickIndexLevel([a, b, c])).toEqual({ used: b, widened: true, enough: true });
    const thin = { ...c, enough: false };
    expect(pickIndexLevel([a, { ...b, enough: false }, thin])).toEqual({ used: thin, widened: true, enough: false });
  });

  it('pages: slices, the total, and a page past the end named', () => {
    expect(pageSlice(45, 1, 20)).toEqual({ from: 0, to: 20, totalPages: 3 });
    expect(pageSlice(45, 3, 20)).toEqual({ from: 40, to: 45, totalPages: 3 });
    expect(pageSlice(45, 4, 20)).toBe('page 4 is past the last page (3 pages of 20)');
    expect(pageSlice(0, 1, 20)).toEqual({ from: 0, to: 0, totalPages: 0 });
    expect(pageSlice(0, 2, 20)).toBe('page 2 is past the last page (0 pages of 20)');
  });

  it('similarity: 1 for the same home next door today, each difference costs its weight', () => {
    const s = { type: 'Terraced', bedrooms: 3, floorAreaSqft: 900 };
    expect(similarity(s, s, 0, 500, 0)).toBe(1);
    expect(similarity(s, { ...s, type: 'Flat' }, 0, 500, 0)).toBe(0.7);
    expect(similarity(s, { ...s, bedrooms: 5 }, 0, 500, 0)).toBe(0.8);
    expect(similarity(s, { ...s, floorAreaSqft: 1350 }, 0, 500, 0)).toBe(0.8);
    expect(similarity(s, s, 250, 500, 30)).toBe(0.85);
    expect(similarity(s, { type: null, bedrooms: null, floorAreaSqft: null }, 500, 500, 120)).toBe(0.35);
  });

  it('dates, prices and shares', () => {
    expect(monthText(monthNo('2025-09-14'))).toBe('2025-09');
    expect(certificateExpiry('2015-10-01')).toBe('2025-10-01');
    expect(priceToday(200_000, Math.log(1.1))).toBe(220_000);
    expect(priceToday(200_000, null)).toBeNull();
    expect(share(1, 3)).toBe(0.3333);
    expect(share(0, 0)).toBeNull();
  });
});
