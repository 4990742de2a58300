import { afterAll, describe, expect, it } from 'vitest';
import { onsNumber, readOnsRents } from '../../../etl/sources/ons_rents/read.ts';
import { ONS_RENTS_HEADER } from '../../../schemas/sources/rents.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';
import { readAllRows } from '../../support/read-all.ts';

// SOURCES.md: no ONS/VOA private rental market statistics in their original form were found,
// so this reader is tested on fixtures in our CSV layout of the published tables.
const tmp = tempDir();
afterAll(tmp.cleanup);

const readAll = (path: string) => readAllRows(readOnsRents, path);

const HEADER = ONS_RENTS_HEADER.join(',');

describe('onsNumber', () => {
  it('blanks suppression markers and strips thousands commas and pound signs', () => {
    for (const m of ['.', '..', '-', 'x', 'X', ' .. ']) expect(onsNumber(m)).toBe('');
    expect(onsNumber('1,250')).toBe('1250');
    expect(onsNumber('£1,250,000.50')).toBe('1250000.50');
    expect(onsNumber('£650')).toBe('650');
    expect(onsNumber('650')).toBe('650');
    // A comma that is not a thousands separator is left for the schema to reject.
    expect(onsNumber('12,50')).toBe('12,50');
  });
});

describe('readOnsRents', () => {
  it('maps every published category, with bedrooms, and skips title rows above the header', async () => {
    const text = 'Table 2.7: Summary of monthly rents recorded between 1 October 2022 and 30 September 2023 by administrative area for England,,,,,,,,\n' +
      ',,,,,,,,\n' +
      HEADER + '\n' +
      '00HB,E06000023,Bristol,Room,"1,020",520,450,500,575\n' +
      '00HB,E06000023,Bristol,Studio,140,780,700,775,850\n' +
      '00HB,E06000023,Bristol,One Bedroom,"1,310",995,875,975,"1,100"\n' +
      '00HB,E06000023,Bristol,Two Bedrooms,"2,150","1,280","1,100","1,250","1,450"\n' +
      '00HB,E06000023,Bristol,Three Bedrooms,870,"1,520","1,300","1,500","1,700"\n' +
      '00HB,E06000023,Bristol,Four or more Bedrooms,310,"2,210","1,750","2,100","2,600"\n' +
      ',E92000001,ENGLAND,All categories,"443,060","1,138",725,950,"1,300"\n';
    for (const gz of [false, true]) {
      const { rows, rejects } = await readAll(writeFixture(tmp.dir, `rents${gz ? '.csv.gz' : '.csv'}`, text, gz));
      expect(rejects.total).toBe(0);
      expect(rows.map((r) => [r.category, r.bedrooms, r.median])).toEqual([
        ['room', null, 500], ['studio', 0, 775], ['1', 1, 975], ['2', 2, 1250], ['3', 3, 1500], ['4+', 4, 2100], ['all', null, 950],
      ]);
      expect(rows[0]).toEqual({ la_code: '00HB', area_code: 'E06000023', area_name: 'Bristol', category: 'room', bedrooms: null,
        count: 1020, mean: 520, lower_quartile: 450, median: 500, upper_quartile: 575 });
      expect(rows[6]).toEqual({ area_code: 'E92000001', area_name: 'ENGLAND', category: 'all', bedrooms: null,
        count: 443060, mean: 1138, lower_quartile: 725, median: 950, upper_quartile: 1300 });
      expect(rows[6]!.la_code).toBeUndefined();
    }
  });

  it('keeps a row whose median survives suppression; rejects the rest by reason', async () => {
    const text = HEADER + '\n' +
      '00HB,E06000023,Bristol,Room,x,.,..,500,-\n' +              // kept: only the median is published
      '00HC,E06000024,North Somerset,Room,.,.,.,.,.\n' +          // suppressed
      '00HC,E06000024,North Somerset,Studio,..,..,..,..,..\n' +   // suppressed
      '00HC,E06000024,North Somerset,Studio,3,600,550,,650\n' +  // median blank: suppressed
      '00HC,E06000024,North Somerset,Five Bedrooms,3,600,550,575,650\n' + // not a published category
      '00HC,E06000024,North Somerset,two bedrooms,3,600,550,575,650\n' +  // categories are exact
      '00HC,,North Somerset,Two Bedrooms,3,600,550,575,650\n' +  // no area code
      '00HC,E06000024,North Somerset,Two Bedrooms,3,600,550,n/a,650\n' + // median not a number
      '00HC,E06000024,North Somerset,Two Bedrooms,3,600,550,"12,50",650\n' +
      '00HC,E06000024,North Somerset,Two Bedrooms,3.5,600,550,575,650\n' + // fractional count
      '00HC,E06000024,North Somerset,Two Bedrooms,3,600,700,575,650\n' +  // lower quartile above median
      '00HC,E06000024,North Somerset,Two Bedrooms,3,600,550,575,560\n' +  // upper quartile below median
      ',,,,,,,,\n' +
      'Source: Valuation Office Agency,,,,,,,,\n' +
      'Footnote 1: LA codes are the former ONS codes\n';
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'suppressed.csv', text));
    expect(rows).toEqual([{ la_code: '00HB', area_code: 'E06000023', area_name: 'Bristol', category: 'room', bedrooms: null, median: 500 }]);
    expect(rejects.toJSON().by_reason).toEqual({
      suppressed: 3, 'invalid:category': 2, 'invalid:area_code': 1, 'invalid:median': 2, 'invalid:count': 1,
      quartiles_out_of_order: 2, not_data: 2,
    });
  });

  it('refuses a file with no header in the first rows', async () => {
    const p = writeFixture(tmp.dir, 'other.csv', 'Area,Median\nBristol,975\n');
    await expect(readAll(p)).rejects.toThrow(/not an ONS private rents CSV/);
    const late = writeFixture(tmp.dir, 'late.csv', 'title\n'.repeat(25) + HEADER + '\n00HB,E06000023,Bristol,Room,1,1,1,1,1\n');
    await expect(readAll(late)).rejects.toThrow(/in the first 20 rows/);
  });
});
