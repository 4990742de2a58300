import { describe, expect, it } from 'vitest';
import { hmoConfidence, lettingRooms, roomRent, valueHmo, type HmoInput } from '../../service/domain/hmo.ts';
import { bedroomGroup, degreeBox, parsePostcodeOrSector, rentArea } from '../../service/domain/rents.ts';

const opts = { finish_quality: 'average', living_room: true, parking: true, outside_space: true } as const;
const input: HmoInput = {
  uprn: '1', bedrooms: 4, kind: 'house', article_4: true, as_of: '2025-08-31',
  room_rent: { level: 'sector', median_pcm: 700, source: 'evidence' },
  hmo_yield: { level: 'outcode', gross_yield_pct: 7, p25_yield_pct: 6, p75_yield_pct: 8.4 },
};

describe('HMO model', () => {
  it('letting rooms: bedrooms, plus the living room when it is let; at least one', () => {
    expect(lettingRooms(4, true)).toBe(4);
    expect(lettingRooms(4, false)).toBe(5);
    expect(lettingRooms(0, true)).toBe(1);
  });
  it('room rent factors multiply', () => {
    expect(roomRent(700, opts)).toBe(700);
    expect(roomRent(700, { ...opts, finish_quality: 'very_high', parking: false, outside_space: false })).toBeCloseTo(700 * 1.15 * 0.97 * 0.97, 6);
  });
  it('value = annual rent ÷ yield; low/high from the yield quartiles; yield echoes', () => {
    const v = valueHmo(input, opts);
    expect(v.gross_rent_pcm).toEqual({ total: 2800, per_room_avg: 700, rooms: 4 });
    expect(v.hmo_sale_value.point).toBe(480_000);
    expect(v.hmo_sale_value.low).toBe(400_000);
    expect(v.hmo_sale_value.high).toBe(560_000);
    expect(v.gross_yield_pct).toBe(7);
    expect(v.article_4).toBe(true);
    expect(v.as_of).toBe('2025-08-31');
  });
  it('confidence: high local evidence, medium district, low with assumed bedrooms or borrowed figures', () => {
    expect(hmoConfidence(input)).toBe('high');
    expect(hmoConfidence({ ...input, hmo_yield: { ...input.hmo_yield, level: 'district' } })).toBe('medium');
    expect(hmoConfidence({ ...input, bedrooms: null })).toBe('low');
    expect(hmoConfidence({ ...input, room_rent: { ...input.room_rent, level: 'district', source: 'ons_district' } })).toBe('low');
    expect(hmoConfidence({ ...input, hmo_yield: { ...input.hmo_yield, level: 'all_areas' } })).toBe('low');
  });
});

describe('long-term rent locations', () => {
  it('postcodes and sectors in any case and spacing', () => {
    expect(parsePostcodeOrSector('bs14ab')).toEqual({ full: 'BS1 4AB', sector: 'BS1 4' });
    expect(parsePostcodeOrSector('EC1A 2BD')).toEqual({ full: 'EC1A 2BD', sector: 'EC1A 2' });
    expect(parsePostcodeOrSector('cf24 1')).toEqual({ full: null, sector: 'CF24 1' });
    expect(rentArea({ outcode: 'w1t' })).toMatchObject({ level: 'outcode', code: 'W1T' });
    expect(rentArea({ lat: 51.45, lng: -2.6, radius_m: 800 })).toMatchObject({ level: 'radius', radius_m: 800 });
  });
  it('4+ bedrooms are one group; the bounding box covers the radius', () => {
    expect([0, 3, 4, 7].map(bedroomGroup)).toEqual([0, 3, 4, 4]);
    const { dlat, dlng } = degreeBox(51.5, 1000);
    expect(dlat * 111_320).toBeCloseTo(1000, 3);
    expect(dlng).toBeGreaterThan(dlat);
  });
});
