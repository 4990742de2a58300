import type { SourceReport } from './context.ts';
import type { SourceAsOf } from '../../schemas/manifest.ts';
import { lastDayOf, monthNo } from '../../schemas/months.ts';

/**
 * Each source's as-of (DESIGN §3, docs/api.md "Windows and as-of"): the latest complete month
 * of its data in the build, the month its windows ("12 months", "24 months") end in, never the
 * build date, so a build made a year after its data ends answers as one made the day after.
 *
 * Every source here is published in whole months (Price Paid, police and UK HPI monthly; a
 * register, scrape or certificate extract on one day), so the month of its latest dated row
 * is its latest complete month. A date after the build date is a typo in the source (Oxford's
 * register has a licence starting in 3017) and never counts: staging bounds each file's
 * `as_of` by the build date (stage-file.ts).
 */

/** The field of each source whose latest value is its as-of; how the month was decided, in words. */
const DATED_BY: Record<string, string> = {
  price_paid: 'date of transfer',
  epc: 'lodgement date',
  epc_scotland: 'lodgement date',
  rental_evidence: 'let date',
  hmo_register: 'licence start date',
  police_crime: 'month',
  ukhpi: 'month',
  listings: 'listing update time',
  gias_schools: 'Ofsted inspection date',
  planning: 'full date (entry, start or end) of a feature',
  onspd: 'date of introduction or termination',
  airbnb_listings: 'last scraped date',
  airbnb_reviews: 'review date',
};

/**
 * Sources whose dates look ahead (a calendar's are nights offered after the scrape): their
 * as-of is the scrape's, taken from the source named here.
 */
const AS_OF_FROM: Record<string, string> = { airbnb_calendar: 'airbnb_listings' };

/** Every source kind in the build with its as-of: the latest `as_of` of its files, as a month. */
export function sourceAsOfs(reports: readonly SourceReport[]): Record<string, SourceAsOf> {
  const latest = new Map<string, string | null>();
  for (const r of reports) {
    const d = latest.get(r.name) ?? null;
    latest.set(r.name, r.as_of !== null && (d === null || r.as_of > d) ? r.as_of : d);
  }
  const out: Record<string, SourceAsOf> = {};
  for (const name of [...latest.keys()].sort()) {
    const from = AS_OF_FROM[name];
    const found = from !== undefined ? latest.get(from) ?? null : latest.get(name) ?? null;
    // Only a full date names a month (a partial YYYY date says too little).
    const date = found !== null && /^\d{4}-\d{2}/.test(found) ? found : null;
    const field = DATED_BY[from ?? name];
    out[name] = {
      month: date === null ? null : date.slice(0, 7),
      date,
      decided_by: date === null
        ? 'no dated rows: the source carries no date its windows could end at'
        : from !== undefined
          ? `the as-of of ${from} (its dates are nights ahead of the scrape)`
          : `its latest ${field ?? 'date'} among its accepted rows (not after the build date) names the month`,
    };
  }
  return out;
}

/**
 * Where a source's windows end: the last day of its as-of month, and that month's number. A
 * build without the source (or without a dated row of it) ends them at the build date, where
 * they hold nothing of it anyway.
 */
export function windowEnd(reports: readonly SourceReport[], name: string, today: string): { month: number; date: string } {
  const month = sourceAsOfs(reports)[name]?.month ?? null;
  return month === null ? { month: monthNo(today), date: today } : { month: monthNo(month), date: lastDayOf(month) };
}
