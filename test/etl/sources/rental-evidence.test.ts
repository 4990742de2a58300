import { afterAll, describe, expect, it } from 'vitest';
import { readRentalEvidence } from '../../../etl/sources/rental_evidence/read.ts';
import { RENTAL_EVIDENCE_HEADER } from '../../../schemas/sources/rents.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';
import { readAllRows } from '../../support/read-all.ts';

// Rental evidence is our own format (docs/sources/rents.md): there is no public sample.
const tmp = tempDir();
afterAll(tmp.cleanup);

const readAll = (path: string) => readAllRows(readRentalEvidence, path);

const HEADER = RENTAL_EVIDENCE_HEADER.join(',');

describe('readRentalEvidence', () => {
  it('reads whole and room lets, normalising postcodes and leaving blanks undefined', async () => {
    const text = HEADER + '\r\n' +
      'E1,2025-03-01,"Flat 2, 10 Park Row, Bristol",bs1 5lj,123456789012,flat,2,whole,1450,furnished,agent-a\r\n' +
      'E2,2025-04-15,"14 Cotham Road, Bristol",BS66DR,,house,5,room,650,,\r\n' +
      'E3,2024-12-31,1 Studio Lane,BS1 1AA,,flat,0,whole,875.50,unfurnished,agent-b\r\n';
    for (const gz of [false, true]) {
      const { rows, rejects } = await readAll(writeFixture(tmp.dir, `ev${gz ? '.csv.gz' : '.csv'}`, text, gz));
      expect(rejects.total).toBe(0);
      expect(rows).toEqual([
        { evidence_id: 'E1', let_date: '2025-03-01', address: 'Flat 2, 10 Park Row, Bristol', postcode: 'BS1 5LJ',
          uprn: 123456789012, property_type: 'flat', bedrooms: 2, let_type: 'whole', rent_pcm: 1450,
          furnished: 'furnished', source: 'agent-a' },
        { evidence_id: 'E2', let_date: '2025-04-15', address: '14 Cotham Road, Bristol', postcode: 'BS6 6DR',
          property_type: 'house', bedrooms: 5, let_type: 'room', rent_pcm: 650 },
        { evidence_id: 'E3', let_date: '2024-12-31', address: '1 Studio Lane', postcode: 'BS1 1AA',
          property_type: 'flat', bedrooms: 0, let_type: 'whole', rent_pcm: 875.5, furnished: 'unfurnished', source: 'agent-b' },
      ]);
      expect(rows[1]!.uprn).toBeUndefined();
    }
  });

  it('finds columns by name in any order', async () => {
    const cols = [...RENTAL_EVIDENCE_HEADER].reverse();
    const values: Record<string, string> = { evidence_id: 'R1', let_date: '2025-01-02', address: '3 A St', postcode: 'BS2 0AA',
      uprn: '', property_type: 'house', bedrooms: '3', let_type: 'whole', rent_pcm: '1600', furnished: 'part', source: 'x' };
    const text = cols.join(',') + '\n' + cols.map((c) => values[c]).join(',') + '\n';
    const { rows } = await readAll(writeFixture(tmp.dir, 'reordered.csv', text));
    expect(rows).toEqual([{ evidence_id: 'R1', let_date: '2025-01-02', address: '3 A St', postcode: 'BS2 0AA',
      property_type: 'house', bedrooms: 3, let_type: 'whole', rent_pcm: 1600, furnished: 'part', source: 'x' }]);
  });

  it('rejects malformed rows by reason and keeps reading', async () => {
    const ok = (id: string, over: Partial<Record<(typeof RENTAL_EVIDENCE_HEADER)[number], string>> = {}) => {
      const v: Record<string, string> = { evidence_id: id, let_date: '2025-03-01', address: '1 A St', postcode: 'BS1 1AA', uprn: '',
        property_type: 'flat', bedrooms: '2', let_type: 'whole', rent_pcm: '1200', furnished: '', source: '', ...over };
      return RENTAL_EVIDENCE_HEADER.map((h) => v[h]).join(',');
    };
    const text = [HEADER,
      ok('', {}),                                   // no id
      ok('B1', { let_date: '01/03/2025' }),         // not ISO
      ok('B2', { let_date: '2025-02-30' }),         // no such day
      ok('B3', { postcode: 'BRISTOL' }),
      ok('B4', { uprn: '12ab' }),
      ok('B5', { property_type: 'bungalow' }),
      ok('B6', { bedrooms: '2.5' }),
      ok('B7', { let_type: 'hmo' }),
      ok('B8', { rent_pcm: '' }),
      ok('B9', { rent_pcm: '-5' }),
      ok('B10', { furnished: 'yes' }),
      ok('B11', { let_type: 'room', bedrooms: '1' }), // a room let in a one-bedroom property
      ok('B12', { address: '' }),
      ok('G1'),
      ok('G1', { rent_pcm: '999' }),                // duplicate id: first wins
    ].join('\n') + '\n';
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'bad.csv', text));
    expect(rows.map((r) => [r.evidence_id, r.rent_pcm])).toEqual([['G1', 1200]]);
    expect(rejects.toJSON().by_reason).toEqual({
      'invalid:evidence_id': 1, 'invalid:let_date': 2, 'invalid:postcode': 1, 'invalid:uprn': 1, 'invalid:property_type': 1,
      'invalid:bedrooms': 2, 'invalid:let_type': 1, 'invalid:rent_pcm': 2, 'invalid:furnished': 1, 'invalid:address': 1,
      'duplicate:evidence_id': 1,
    });
  });

  it('refuses a file without the rental-evidence columns, naming what is missing', async () => {
    const p = writeFixture(tmp.dir, 'other.csv', 'evidence_id,let_date,address,postcode\nE1,2025-01-01,1 A St,BS1 1AA\n');
    await expect(readAll(p)).rejects.toThrow(/not a rental-evidence CSV \(no uprn, property_type, bedrooms, let_type, rent_pcm, furnished, source column\)/);
  });
});
