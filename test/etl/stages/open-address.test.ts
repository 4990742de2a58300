import { describe, expect, it } from 'vitest';
import { addressBaseKey, epcKey } from '../../../etl/stages/20-merged/20-match-addresses/keys.ts';
import { openAddress } from '../../../etl/stages/20-merged/10-addresses/open-address.ts';

/** Certificate lines as assessors write them, with the address-base fields each should give (by hand). */
const CASES: [string[], string, string, Partial<ReturnType<typeof openAddress>>][] = [
  [['2 Alexandra Drive', '', ''], 'Bristol', 'BS1 1UE', { sub_building: null, building_name: null, building_number: '2', street_name: 'ALEXANDRA DRIVE', address: '2 ALEXANDRA DRIVE, BRISTOL, BS1 1UE' }],
  [['Flat 2', '8 Alexandra Drive', ''], 'BRISTOL', 'BS1 1UE', { sub_building: 'FLAT 2', building_number: '8', street_name: 'ALEXANDRA DRIVE', address: 'FLAT 2, 8 ALEXANDRA DRIVE, BRISTOL, BS1 1UE' }],
  [['Flat 2, 8 Alexandra Drive', '', ''], 'Bristol', 'BS1 1UE', { sub_building: 'FLAT 2', building_number: '8', street_name: 'ALEXANDRA DRIVE' }],
  [['Flat 84 Shire House', '98 Napier Street', ''], 'London', 'E1 1AA', { sub_building: 'FLAT 84', building_name: 'SHIRE HOUSE', building_number: '98', street_name: 'NAPIER STREET', address: 'FLAT 84, SHIRE HOUSE, 98 NAPIER STREET, LONDON, E1 1AA' }],
  [['Ground Floor Flat', '102 Reedley Road', ''], 'Bristol', 'BS9 3TD', { sub_building: 'GROUND FLOOR FLAT', building_number: '102', street_name: 'REEDLEY ROAD' }],
  [['Royal House, 6 Alexandra Drive', '', ''], 'Bristol', 'BS1 1UE', { sub_building: null, building_name: 'ROYAL HOUSE', building_number: '6', street_name: 'ALEXANDRA DRIVE' }],
  [['2 Alexandra Drive', 'Clifton', 'Bristol'], 'Bristol', 'BS8 1AA', { building_number: '2', street_name: 'ALEXANDRA DRIVE', locality: 'CLIFTON', address: '2 ALEXANDRA DRIVE, CLIFTON, BRISTOL, BS8 1AA' }],
  [['Rose Cottage', 'Church Lane', 'Painswick'], 'Stroud', 'GL6 6QA', { building_name: 'ROSE COTTAGE', building_number: null, street_name: 'CHURCH LANE', locality: 'PAINSWICK' }],
  [['Flat', 'First Floor, 12 High St'], 'Bath', 'BA1 1AA', { sub_building: 'FLAT FIRST FLOOR', building_number: '12', street_name: 'HIGH ST' }],
  [['12-14 Mill Road'], 'Cardiff', 'CF10 1AA', { building_number: '12-14', street_name: 'MILL ROAD' }],
];

describe('openAddress: address-base fields from certificate lines', () => {
  it.each(CASES)('%j', (lines, town, postcode, want) => {
    expect(openAddress(lines, town, postcode)).toMatchObject(want);
  });

  it('keys like the certificate it came from: the same unit and house numbers for the matcher', () => {
    for (const [lines, town, postcode] of CASES) {
      const a = openAddress(lines, town, postcode);
      const fromAddress = addressBaseKey(a);
      // The certificate's own key, with the locality and town lines left out (as the address's street is).
      const fromCert = epcKey(lines.filter((l) => l && l.toUpperCase() !== town.toUpperCase() && l !== 'Clifton' && l !== 'Painswick'));
      expect(fromAddress.unit, lines.join(' | ')).toBe(fromCert.unit);
      expect(fromAddress.numbers, lines.join(' | ')).toEqual(fromCert.numbers);
    }
  });

  it('an address of one part with no number is its own street, never empty', () => {
    expect(openAddress(['The Old Rectory'], null, 'GL5 1AA')).toMatchObject({ street_name: 'THE OLD RECTORY', building_number: null, address: 'THE OLD RECTORY, GL5 1AA' });
  });
});
