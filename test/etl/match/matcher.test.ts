import { describe, expect, it } from 'vitest';
import { addressBaseKey, epcKey, numbersAgree, numbersAgreeLoosely, saleKey, type AddressKey } from '../../../etl/stages/20-merged/20-match-addresses/keys.ts';
import { AddressMatcher } from '../../../etl/stages/20-merged/20-match-addresses/matcher.ts';

type AB = { uprn: number; postcode: string; town?: string; sub_building?: string; building_name?: string; building_number?: string; street_name: string };

function matcher(rows: AB[]): AddressMatcher {
  const m = new AddressMatcher();
  for (const r of rows) m.add({ uprn: r.uprn, postcode: r.postcode, town: r.town ?? 'BRISTOL', key: addressBaseKey(r) });
  return m;
}

const BLOCK: AB[] = [
  { uprn: 1, postcode: 'BS1 1HU', sub_building: 'FLAT 1', building_name: 'HIGHBURY COURT', building_number: '1', street_name: 'GRANGE WALK' },
  { uprn: 2, postcode: 'BS1 1HU', sub_building: 'FLAT 2', building_name: 'HIGHBURY COURT', building_number: '1', street_name: 'GRANGE WALK' },
  { uprn: 3, postcode: 'BS1 1HU', building_number: '32', street_name: 'GRANGE WALK' },
  { uprn: 4, postcode: 'BS1 1HU', building_name: '32A', street_name: 'GRANGE WALK' },
  { uprn: 5, postcode: 'BS1 1HU', building_number: '9', street_name: 'OAKFIELD LANE' },
];

describe('AddressMatcher', () => {
  const m = matcher(BLOCK);
  const sale = (saon: string | undefined, paon: string, street: string, pc = 'BS1 1HU') => m.match(pc, 'BRISTOL', saleKey(saon, paon, street));

  it('matches flat variants: FLAT 2 and 2, building name with or without the number', () => {
    expect(sale('FLAT 2', 'HIGHBURY COURT, 1', 'GRANGE WALK')).toMatchObject({ uprn: 2, method: 'postcode' });
    expect(sale('2', '1', 'GRANGE WALK')).toMatchObject({ uprn: 2 });
    expect(sale('Flat 1', 'Highbury Court, 1', 'Grange Wlk')).toMatchObject({ uprn: 1 });
  });

  it('never confuses 32A with 32, or one flat with another', () => {
    expect(sale(undefined, '32A', 'GRANGE WALK')).toMatchObject({ uprn: 4 });
    expect(sale(undefined, '32 A', 'GRANGE WALK')).toMatchObject({ uprn: 4 });
    expect(sale(undefined, '32', 'GRANGE WALK')).toMatchObject({ uprn: 3 });
    expect(sale('FLAT 3', 'HIGHBURY COURT, 1', 'GRANGE WALK')).toMatchObject({ uprn: null });
  });

  it('does not read a new-build plot number as the house number', () => {
    expect(sale(undefined, 'PLOT 9', 'OAKFIELD LN')).toMatchObject({ uprn: null });
    expect(sale(undefined, '9', 'OAKFIELD LN')).toMatchObject({ uprn: 5 });
  });

  it('tolerates abbreviations and a street typo inside the right postcode', () => {
    expect(sale(undefined, '9', 'OAKFEILD LN')).toMatchObject({ uprn: 5 });
  });

  it('falls back to the street when the postcode is wrong, preferring the nearer postcode of a repeated street name', () => {
    const twoStreets = matcher([
      { uprn: 10, postcode: 'CF14 1RA', town: 'CARDIFF', building_number: '11', street_name: 'HEOL Y DERI' },
      { uprn: 11, postcode: 'CF23 1WG', town: 'CARDIFF', building_number: '11', street_name: 'HEOL Y DERI' },
    ]);
    expect(twoStreets.match('CF14 1FL', 'CARDIFF', saleKey(undefined, '11', 'HEOL Y DERI'))).toMatchObject({ uprn: 10, method: 'street' });
    expect(twoStreets.match('SA1 1AA', 'CARDIFF', saleKey(undefined, '11', 'HEOL Y DERI'))).toMatchObject({ uprn: null, reason: 'ambiguous' });
  });

  it('keeps the street search inside the outcode when the recorded postcode is live', () => {
    const m2 = matcher([
      { uprn: 20, postcode: 'BS2 1DY', sub_building: 'FLAT 3', building_number: '35', street_name: 'PRIORY WAY' },
      { uprn: 21, postcode: 'BS9 1EX', building_number: '35', street_name: 'PRIORY WAY' },
      { uprn: 22, postcode: 'BS2 1DZ', building_number: '36', street_name: 'PRIORY WAY' },
    ]);
    // A flat sold without its flat number: the live postcode BS2 1DY wins over the address.
    expect(m2.match('BS2 1DY', 'BRISTOL', saleKey(undefined, '35', 'PRIORY WAY'))).toMatchObject({ uprn: null });
    // The same street in the same outcode is still found when the postcode is live but wrong.
    expect(m2.match('BS2 1DY', 'BRISTOL', saleKey(undefined, '36', 'PRIORY WAY'))).toMatchObject({ uprn: 22, method: 'street' });
    // A postcode that matches nothing (mistyped) may search the whole town.
    expect(m2.match('BS2 9ZZ', 'BRISTOL', saleKey(undefined, '35', 'PRIORY WAY'))).toMatchObject({ uprn: 21, method: 'street' });
  });

  it('leaves unmatched with a reason rather than guessing', () => {
    expect(sale(undefined, '77', 'GRANGE WALK')).toMatchObject({ uprn: null, reason: 'no_number_match' });
    expect(m.match('ZZ9 9ZZ', 'NOWHERE', saleKey(undefined, '1', 'NO STREET'))).toMatchObject({ uprn: null, reason: 'no_postcode_candidates' });
    expect(m.match(undefined, 'BRISTOL', saleKey(undefined, '9', 'OAKFIELD LANE'))).toMatchObject({ uprn: 5, method: 'street' });
  });

  it('reads certificate address lines with the flat on its own line or in front', () => {
    expect(m.match('BS1 1HU', 'BRISTOL', epcKey(['Flat 2', 'Highbury Court, 1 Grange Walk', undefined]))).toMatchObject({ uprn: 2 });
    expect(m.match('BS1 1HU', 'BRISTOL', epcKey(['Flat 1, Highbury Court', '1 Grange Walk', '']))).toMatchObject({ uprn: 1 });
    expect(m.match('BS1 1HU', 'BRISTOL', epcKey(['32a Grange Walk', undefined, undefined]))).toMatchObject({ uprn: 4 });
  });

  it('reads the real patterns: flat before a building name, unit number before it, floors, joined words', () => {
    const m3 = matcher([
      { uprn: 30, postcode: 'N1 1AA', sub_building: 'FLAT 84', building_name: 'SHIRE HOUSE', building_number: '98', street_name: 'NAPIER STREET' },
      { uprn: 31, postcode: 'N1 1AA', building_number: '84', street_name: 'NAPIER STREET' },
      { uprn: 32, postcode: 'N1 1AA', sub_building: '10', building_name: 'CEDAR LODGE', street_name: 'BRIGHTON ROAD' },
      { uprn: 33, postcode: 'N1 1AA', building_number: '10', street_name: 'BRIGHTON ROAD' },
      { uprn: 34, postcode: 'N1 1AA', sub_building: 'GROUND FLOOR FLAT', building_number: '102', street_name: 'REEDLEY ROAD' },
      { uprn: 35, postcode: 'N1 1AA', sub_building: 'FIRST FLOOR FLAT', building_number: '102', street_name: 'REEDLEY ROAD' },
      { uprn: 36, postcode: 'SY23 1AA', building_number: '31', street_name: 'MAESMAELOR' },
    ]);
    const epc = (pc: string, ...lines: string[]) => m3.match(pc, 'BRISTOL', epcKey(lines));
    expect(epc('N1 1AA', 'Flat 84 Shire House', '98, Napier Street')).toMatchObject({ uprn: 30 });
    expect(epc('N1 1AA', '84 Napier Street')).toMatchObject({ uprn: 31 });
    // The house numbered 10 agrees exactly, but the flat of Cedar Lodge fits the words far better.
    expect(epc('N1 1AA', '10 Cedar Lodge', 'Brighton Road')).toMatchObject({ uprn: 32 });
    expect(epc('N1 1AA', '10 Brighton Road')).toMatchObject({ uprn: 33 });
    expect(epc('N1 1AA', 'Ground Floor Flat', '102, Reedley Road')).toMatchObject({ uprn: 34 });
    expect(epc('N1 1AA', 'Flat, First Floor, 102 Reedley Road')).toMatchObject({ uprn: 35 });
    expect(m3.match('N1 1AA', 'BRISTOL', saleKey('GRD FLR FLAT', '102', 'REEDLEY RD'))).toMatchObject({ uprn: 34 });
    expect(epc('SY23 1AA', '31, Maes Maelor', 'Penparcau')).toMatchObject({ uprn: 36 });
    // A unit number alone is never a house number when the house exists: flat 84 is not 84 Napier Street.
    expect(m3.match('N1 1AA', 'BRISTOL', saleKey('84', 'SHIRE HOUSE', 'NAPIER STREET'))).toMatchObject({ uprn: null });
  });

  it('finds a candidate added after its postcode was first searched', () => {
    const m4 = matcher([{ uprn: 40, postcode: 'BS3 1AA', building_number: '5', street_name: 'ELM ROAD' }]);
    expect(m4.match('BS3 1AA', 'BRISTOL', saleKey(undefined, '7', 'ELM ROAD'))).toMatchObject({ uprn: null, reason: 'no_number_match' });
    m4.add({ uprn: 41, postcode: 'BS3 1AA', town: 'BRISTOL', key: addressBaseKey({ building_number: '7', street_name: 'ELM ROAD' }) });
    expect(m4.match('BS3 1AA', 'BRISTOL', saleKey(undefined, '7', 'ELM ROAD'))).toMatchObject({ uprn: 41, method: 'postcode' });
    // And one with the same numbers as another already there: the two now tie.
    m4.add({ uprn: 42, postcode: 'BS3 1AA', town: 'BRISTOL', key: addressBaseKey({ building_number: '7', street_name: 'ELM ROAD' }) });
    expect(m4.match('BS3 1AA', 'BRISTOL', saleKey(undefined, '7', 'ELM ROAD'))).toMatchObject({ uprn: null, reason: 'ambiguous' });
  });
});

describe('numbersAgree and numbersAgreeLoosely', () => {
  // The definitions, on the lists themselves: the unit and the numbers in order; loosely, the
  // unit read as the first number, and at least one number.
  const exact = (a: AddressKey, b: AddressKey) => a.unit === b.unit && a.numbers.length === b.numbers.length && a.numbers.every((n, i) => n === b.numbers[i]);
  const flat = (k: AddressKey) => (k.unit ? [k.unit, ...k.numbers] : k.numbers);
  const loose = (a: AddressKey, b: AddressKey) => flat(a).length > 0 && flat(a).length === flat(b).length && flat(a).every((n, i) => n === flat(b)[i]);
  const keys: AddressKey[] = [
    saleKey(undefined, undefined, 'GRANGE WALK'), saleKey(undefined, '1', 'GRANGE WALK'), saleKey(undefined, '12', 'GRANGE WALK'),
    saleKey('1', '2', 'GRANGE WALK'), saleKey('12', undefined, 'GRANGE WALK'), saleKey(undefined, '1 2', 'GRANGE WALK'),
    saleKey('1', undefined, 'GRANGE WALK'), saleKey(undefined, '1-2', 'X'), saleKey(undefined, '1', 'X'), saleKey('FLAT 2', '1', 'X'),
    saleKey('2', '1', 'X'), saleKey(undefined, '2 1', 'X'), saleKey(undefined, 'PLOT 9', 'X'), saleKey(undefined, '9', 'X'),
    saleKey('GROUND FLOOR FLAT', '102', 'REEDLEY ROAD'), saleKey('FIRST FLOOR FLAT', '102', 'REEDLEY ROAD'), saleKey('A', '3', 'X'),
    saleKey(undefined, '3A', 'X'), saleKey('10', 'CEDAR LODGE', 'BRIGHTON ROAD'), epcKey(['10 Cedar Lodge', 'Brighton Road']),
    epcKey(['Flat 84 Shire House', '98, Napier Street']), epcKey(['84 98 Napier Street']), epcKey(['Ground Floor Flat', '102, Reedley Road']),
    addressBaseKey({ sub_building: 'FLAT 84', building_name: 'SHIRE HOUSE', building_number: '98', street_name: 'NAPIER STREET' }),
    addressBaseKey({ building_name: 'ROSE COTTAGE', street_name: 'LANE' }), addressBaseKey({ street_name: 'LANE' }),
  ];
  it('agree exactly where the lists do, over every pair of a varied set of keys', () => {
    let agreeing = 0;
    for (const a of keys) for (const b of keys) {
      expect(numbersAgree(a, b), `${JSON.stringify([a.unit, a.numbers])} ~ ${JSON.stringify([b.unit, b.numbers])}`).toBe(exact(a, b));
      expect(numbersAgreeLoosely(a, b), `${JSON.stringify([a.unit, a.numbers])} ~~ ${JSON.stringify([b.unit, b.numbers])}`).toBe(loose(a, b));
      if (a !== b && loose(a, b)) agreeing++;
    }
    // The set has pairs that agree only loosely ("2" of "1" against "2 1"), not only identical keys.
    expect(agreeing).toBeGreaterThan(4);
  });
});
