import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { epcKey, saleKey } from '../../../etl/stages/20-merged/20-match-addresses/keys.ts';
import { AddressMatcher, type MatchResult } from '../../../etl/stages/20-merged/20-match-addresses/matcher.ts';
import { normalisePostcode, normaliseText } from '../../../schemas/address-normalise.ts';
import { hasRaw, rawPath } from '../../support/raw.ts';

const LINKED = '_derived_not_original/linked_ppd_epc_full_first_1000.csv';

/** One home of the real linked file: its Price Paid address, its certificate's lines and the UPRN linking them. */
interface Home {
  uprn: number;
  postcode: string;
  town: string;
  saon: string;
  paon: string;
  street: string;
  lines: [string, string, string];
}

function homes(): Home[] {
  const rows = parse(readFileSync(rawPath(LINKED)), { columns: true }) as Record<string, string>[];
  const byUprn = new Map<number, Home>();
  for (const r of rows) {
    const uprn = Number(r.uprn);
    if (byUprn.has(uprn)) continue; // a home sold twice is one home
    byUprn.set(uprn, {
      uprn, postcode: normalisePostcode(r.postcode)!, town: normaliseText(r.towncity),
      saon: r.saon ?? '', paon: r.paon ?? '', street: r.street ?? '',
      lines: [r.address1 ?? '', r.address2 ?? '', r.address3 ?? ''],
    });
  }
  return [...byUprn.values()];
}

type Outcome = 'correct' | 'wrong' | Exclude<MatchResult, { uprn: number }>['reason'];

/**
 * Each certificate's lines matched against the homes' Price Paid addresses, as the ETL
 * matches them (keys, then candidates in the postcode, then the street). `bucket` says
 * which candidates share a postcode: their own, or all of them at once (a stress test of
 * precision: every home of the file is a candidate for every certificate).
 */
function run(hs: Home[], bucket: (h: Home) => string): Record<Outcome, number> & { outcomes: Map<number, Outcome> } {
  const m = new AddressMatcher();
  for (const h of hs) m.add({ uprn: h.uprn, postcode: bucket(h), town: h.town, key: saleKey(h.saon, h.paon, h.street) });
  const counts = { correct: 0, wrong: 0, no_number_match: 0, ambiguous: 0, low_similarity: 0, no_postcode_candidates: 0, outcomes: new Map<number, Outcome>() };
  for (const h of hs) {
    const res = m.match(bucket(h), h.town, epcKey(h.lines));
    const o: Outcome = res.uprn === null ? res.reason : res.uprn === h.uprn ? 'correct' : 'wrong';
    counts[o]++;
    counts.outcomes.set(h.uprn, o);
  }
  return counts;
}

describe.skipIf(!hasRaw(LINKED))('the matcher on real addresses (the linked PPD/EPC sample)', () => {
  const hs = homes();

  it('matches at least 98% of the real homes correctly within their postcode, and none wrongly', () => {
    expect(hs).toHaveLength(938); // 1,000 rows, 938 distinct UPRNs
    const c = run(hs, (h) => h.postcode);
    expect(c.wrong).toBe(0);
    expect(c.correct / hs.length).toBeGreaterThanOrEqual(0.98);
  });

  it('reads each real pattern that used to miss', () => {
    const { outcomes } = run(hs, (h) => h.postcode);
    const outcome = (first: string) => outcomes.get(hs.find((h) => h.lines[0] === first)!.uprn);
    // Flat in a named building, the street number in the PAON (SAON FLAT 84, PAON SHIRE HOUSE, 98).
    expect(outcome('Flat 84 Shire House')).toBe('correct');
    // A unit number before a building name, read by Price Paid as the SAON (SAON 9, PAON AVELEY HOUSE).
    expect(outcome('9 Aveley House')).toBe('correct');
    // Building-type words: Apartments, Cottages.
    expect(outcome('86 Apex Apartments')).toBe('correct');
    expect(outcome('1 Chafford Cottages')).toBe('correct');
    // A floor description as the unit (SAON GROUND FLOOR FLAT).
    expect(outcome('Ground Floor Flat')).toBe('correct');
    // A street name split in one source and joined in the other (MAES MAELOR, MAESMAELOR).
    expect(outcome('31, Maes Maelor')).toBe('correct');
  });

  it('with every home a candidate for every certificate, still matches none wrongly', () => {
    const c = run(hs, () => 'ZZ1 1ZZ');
    expect(c.wrong).toBe(0);
  });
});
