import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isIsoDate, parseCount, parseId, parsePercent, parsePrice, parseTf } from '../../../schemas/sources/airbnb.ts';

describe('Airbnb field parsers', () => {
  it('parsePrice reads back any amount written as Inside Airbnb writes it ($, grouping, 2 dp)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_00 }), (pence) => {
        const text = `$${(pence / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
        expect(parsePrice(text)).toBeCloseTo(pence / 100, 6);
        expect(parsePrice(String(Math.floor(pence / 100)))).toBe(Math.floor(pence / 100)); // summary file
      }),
    );
  });

  it('parsePrice: blank is undefined, malformed is null', () => {
    expect(parsePrice('')).toBeUndefined();
    expect(parsePrice(undefined)).toBeUndefined();
    for (const bad of ['$', 'USD 40', '$40.0.0', '-$5.00', '$1,04.00', '40.123', '$ 40', '4O']) {
      expect(parsePrice(bad), bad).toBeNull();
    }
  });

  it('parseId keeps any id of up to 20 digits exactly, beyond the safe integer range', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 20n - 1n }), (n) => {
        const s = n.toString();
        expect(parseId(s)).toBe(s);
        expect(BigInt(parseId(s)!)).toBe(n);
      }),
    );
    for (const bad of ['', ' 1', '1.0', '-1', '1e18', '123456789012345678901', undefined]) {
      expect(parseId(bad), String(bad)).toBeUndefined();
    }
  });

  it('parsePercent, parseTf, parseCount, isIsoDate', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 100 }), (p) => {
      expect(parsePercent(`${p}%`)).toBeCloseTo(p / 100, 12);
    }));
    expect([parsePercent('N/A'), parsePercent(''), parsePercent('101%'), parsePercent('95')]).toEqual([undefined, undefined, null, null]);
    expect([parseTf('t'), parseTf('f'), parseTf(''), parseTf('true'), parseTf('T')]).toEqual([true, false, undefined, null, null]);
    expect([parseCount('0'), parseCount('2147483647'), parseCount(''), parseCount('2147483648'), parseCount('1.0')]).toEqual([
      0, 2147483647, undefined, null, null,
    ]);
    expect(['2025-09-26', '2026-02-28'].every(isIsoDate)).toBe(true);
    expect(['2025-9-26', '2025-13-01', '2025-00-10', '2025-01-32', '26/09/2025', '2025-09-26 00:00'].some(isIsoDate)).toBe(false);
  });
});
