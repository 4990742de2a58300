import { describe, expect, it } from 'vitest';
import { sourceAsOfs, windowEnd } from '../../etl/pipeline/source-as-of.ts';
import { lastDayOf, monthNo } from '../../schemas/months.ts';
import { sourceAsOfMonth, windowEndDate } from '../../service/lookups/tables.ts';
import type { BuildInfo } from '../../service/build/source.ts';

/** Each source's as-of month and where its windows end (docs/api.md, "Windows and as-of"). */
const report = (name: string, path: string, as_of: string | null) => ({
  name, path, bytes: 1, sha256: '0'.repeat(64), as_of, rows_read: 1, rows_rejected: 0, rejected_by_reason: {},
});

describe('source as-of', () => {
  const reports = [
    report('price_paid', 'ppd/pp-complete.csv', '2025-07-30'),
    report('price_paid', 'ppd/pp-monthly-update.csv', '2025-08-28'),
    report('airbnb_listings', 'str/listings.csv.gz', '2025-09-26'),
    report('airbnb_calendar', 'str/calendar.csv.gz', '2026-09-25'),
    report('planning', 'planning/a.geojson', '2019'),
    report('addressbase', 'ab/ab.csv', null),
  ];

  it('the month of the latest dated row across a source\'s files; a calendar takes its listings\' scrape', () => {
    const a = sourceAsOfs(reports);
    expect(Object.keys(a)).toEqual(['addressbase', 'airbnb_calendar', 'airbnb_listings', 'planning', 'price_paid']);
    expect(a.price_paid).toEqual({ month: '2025-08', date: '2025-08-28', decided_by: 'its latest date of transfer among its accepted rows (not after the build date) names the month' });
    expect(a.airbnb_calendar).toEqual({ month: '2025-09', date: '2025-09-26', decided_by: 'the as-of of airbnb_listings (its dates are nights ahead of the scrape)' });
  });

  it('no month from a partial date or no date at all, said in words', () => {
    const a = sourceAsOfs(reports);
    expect(a.planning).toEqual({ month: null, date: null, decided_by: 'no dated rows: the source carries no date its windows could end at' });
    expect(a.addressbase!.month).toBeNull();
  });

  it('windows end on the last day of the as-of month; without one, on the build date', () => {
    expect(windowEnd(reports, 'price_paid', '2027-01-01')).toEqual({ month: 2025 * 12 + 7, date: '2025-08-31' });
    expect(windowEnd(reports, 'rental_evidence', '2027-01-01')).toEqual({ month: monthNo('2027-01'), date: '2027-01-01' });
    expect(lastDayOf('2024-02')).toBe('2024-02-29');
    expect(lastDayOf('2025-12')).toBe('2025-12-31');
  });

  it('the service takes the manifest\'s decided month, and for an older build the month of its files\' latest full date', () => {
    const build = (manifest: Record<string, unknown>) => ({ id: 'b', dir: '/x', manifest }) as unknown as BuildInfo;
    const current = build({ created_at: '2027-01-01T00:00:00Z', sources: reports, source_as_of: sourceAsOfs(reports) });
    expect(sourceAsOfMonth(current, 'airbnb_calendar')).toBe('2025-09');
    expect(sourceAsOfMonth(current, 'planning')).toBeNull();
    expect(windowEndDate(current, 'price_paid')).toBe('2025-08-31');
    const older = build({ created_at: '2027-01-01T00:00:00Z', sources: reports });
    expect(sourceAsOfMonth(older, 'price_paid')).toBe('2025-08');
    expect(sourceAsOfMonth(older, 'planning')).toBeNull();
    expect(windowEndDate(older, 'rental_evidence')).toBe('2027-01-01');
  });
});
