import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { readPricePaid } from '../../etl/sources/price_paid/read.ts';
import { RejectLog } from '../../etl/sources/rejects.ts';
import { normalisePostcode } from '../../schemas/address-normalise.ts';
import { hasRaw, rawPath } from './raw.ts';
import type { Home } from './typeahead.ts';
import type { IndexRow } from '../../etl/stages/30-serving/10-search-index/build.ts';

/** The real address samples (SOURCES.md): Price Paid in its three layouts and the Price Paid side of the linked EPC sample. */
export const REAL_PPD = [
  'ppd/pp-complete_head_1995/pp-complete_first10297rows.csv',
  'ppd/ppd_test_sample_2015/appd-test.csv',
  'ppd/ppd_report_builder_city_of_london/barbican_raw.csv',
  'ppd/ppd_report_builder_city_of_london/golden_lane.csv',
];
export const REAL_LINKED = '_derived_not_original/linked_ppd_epc_full_first_1000.csv';

export const hasRealHomes = (): boolean => [...REAL_PPD, REAL_LINKED].every((f) => hasRaw(f));

interface Parts { saon?: string; paon?: string; street?: string; locality?: string; town?: string; postcode?: string }

/**
 * The distinct homes of the real samples (one per flat, house and street in a postcode),
 * with a display address as Price Paid gives its parts: "FLAT 2, 12 HIGH STREET, LOCALITY,
 * TOWN, POSTCODE" (a house name stands alone before the street). Sales without a street or
 * a valid postcode are left out. UPRNs are ordinals (the samples carry none).
 */
export async function realHomes(): Promise<Home[]> {
  const parts: Parts[] = [];
  for (const f of REAL_PPD) for await (const r of readPricePaid(rawPath(f), new RejectLog())) parts.push(r);
  const linked = parse(readFileSync(rawPath(REAL_LINKED)), { columns: true, skip_empty_lines: true, relax_quotes: true }) as Record<string, string>[];
  for (const r of linked) parts.push({ saon: r.saon, paon: r.paon, street: r.street, locality: r.locality, town: r.towncity, postcode: r.postcode });
  const homes = new Map<string, Home>();
  for (const p of parts) {
    const postcode = normalisePostcode(p.postcode);
    const street = clean(p.street);
    if (!postcode || !street) continue;
    const [saon, paon, locality, town] = [clean(p.saon), clean(p.paon), clean(p.locality), clean(p.town)];
    const key = [saon, paon, street, postcode].join('|');
    if (homes.has(key)) continue;
    const first = paon ? (/\d/.test(paon) ? `${paon} ${street}` : `${paon}, ${street}`) : street;
    const address = [saon, first, locality !== town ? locality : null, town, postcode].filter(Boolean).join(', ');
    homes.set(key, { uprn: homes.size + 1, address, postcode, saon, paon, street, locality, town });
  }
  return [...homes.values()];
}

const clean = (s: string | undefined): string | null => (s?.trim() ? s.trim().toUpperCase().replace(/\s+/g, ' ') : null);

/** Homes as index rows in postcode then address order, as the ETL stage reads them (no coordinates: NaN). */
export function indexRows(homes: readonly Home[]): IndexRow[] {
  return homes
    .map((h) => ({ uprn: h.uprn, address: h.address, postcode: h.postcode, lat: NaN, lng: NaN }))
    .sort((a, b) => (a.postcode < b.postcode ? -1 : a.postcode > b.postcode ? 1 : a.address < b.address ? -1 : a.address > b.address ? 1 : a.uprn - b.uprn));
}
