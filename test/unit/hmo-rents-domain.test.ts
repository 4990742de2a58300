import { describe, expect, it } from 'vitest';
import {
  HMO_STANDARD_SQFT_PER_ROOM, hmoConfidence, lettingRooms, roomRent, spacePerRoom, valueHmo,
  type HmoInput, type SpacePerRoomFigure,
} from '../../service/domain/hmo.ts';
import { bedroomGroup, degreeBox, parsePostcodeOrSector, rentArea } from '../../service/domain/rents.ts';

const opts = { finish_quality: 'average', living_room: true, parking: true, outside_space: true } as const;
/** A build's own figures: 10th percentile 250 sq ft per household, median 340. */
const measured: SpacePerRoomFigure = { bound_sqft: 250, typical_sqft: 340, source: 'hmo_licences', sample_size: 30 };
const standard: SpacePerRoomFigure = { bound_sqft: 129, typical_sqft: null, source: 'national_standards', sample_size: 12 };
const input: HmoInput = {
  uprn: '1', bedrooms: 4, floor_area_sqft: 1500, kind: 'house', article_4: true, as_of: '2025-08-31',
  space_per_room: measured,
  room_rent: { level: 'sector', median_pcm: 700, source: 'evidence' },
  hmo_yield: { level: 'outcode', gross_yield_pct: 7, p25_yield_pct: 6, p75_yield_pct: 8.4 },
};
const house = (bedrooms: number | null, floor_area_sqft: number | null) => ({ bedrooms, floor_area_sqft, kind: 'house' as const });

describe('HMO model', () => {
  it('letting rooms: bedrooms, plus the living room when it is let; at least one', () => {
    expect(lettingRooms(house(4, 1500), true, measured)).toEqual({ rooms: 4, from_record: true });
    expect(lettingRooms(house(4, 1500), false, measured)).toEqual({ rooms: 5, from_record: true });
    expect(lettingRooms(house(0, 1500), true, measured)).toEqual({ rooms: 1, from_record: true });
  });
  it('letting rooms: no more than the floor area holds (whole rooms of the space one needs)', () => {
    // 603 / 250 = 2.41 → 2 rooms; 1281 / 250 = 5.12 → 5, more than its 3 bedrooms.
    expect(lettingRooms(house(3, 603), true, measured)).toEqual({ rooms: 2, from_record: false });
    expect(lettingRooms(house(3, 1281), true, measured)).toEqual({ rooms: 3, from_record: true });
    // Letting the living room too: 4 wanted; 1000 / 250 = 4 holds them, 999 / 250 = 3.99 does not.
    expect(lettingRooms(house(3, 1000), false, measured)).toEqual({ rooms: 4, from_record: true });
    expect(lettingRooms(house(3, 999), false, measured)).toEqual({ rooms: 3, from_record: false });
    // A floor area under one room's space still lets one room.
    expect(lettingRooms(house(2, 100), true, measured)).toEqual({ rooms: 1, from_record: false });
    // The national standards' 129 sq ft: 603 / 129 = 4.67 → 4 hold the 3 bedrooms.
    expect(lettingRooms(house(3, 603), true, standard)).toEqual({ rooms: 3, from_record: true });
    expect(lettingRooms(house(5, 603), true, standard)).toEqual({ rooms: 4, from_record: false });
  });
  it('letting rooms: unrecorded bedrooms come from the floor area at the median space per household', () => {
    // 1281 / 340 = 3.77 → 4 bedrooms; 1281 / 250 holds 5.
    expect(lettingRooms(house(null, 1281), true, measured)).toEqual({ rooms: 4, from_record: false });
    expect(lettingRooms(house(null, 1281), false, measured)).toEqual({ rooms: 5, from_record: false });
    // 603 / 340 = 1.77 → 2 bedrooms, held (603 / 250 = 2.41).
    expect(lettingRooms(house(null, 603), true, measured)).toEqual({ rooms: 2, from_record: false });
    // No median without the licences: the typical 3 for a house, bounded by 500 / 129 = 3.88 → 3; 300 / 129 → 2.
    expect(lettingRooms(house(null, 500), true, standard)).toEqual({ rooms: 3, from_record: false });
    expect(lettingRooms(house(null, 300), true, standard)).toEqual({ rooms: 2, from_record: false });
  });
  it('letting rooms: neither bedrooms nor floor area known: the typical count (3 for a house, 2 for a flat)', () => {
    expect(lettingRooms(house(null, null), true, measured)).toEqual({ rooms: 3, from_record: false });
    expect(lettingRooms(house(null, null), false, measured)).toEqual({ rooms: 4, from_record: false });
    expect(lettingRooms({ bedrooms: null, floor_area_sqft: null, kind: 'flat' }, true, standard)).toEqual({ rooms: 2, from_record: false });
    // A recorded 0 or missing floor area is no bound.
    expect(lettingRooms(house(5, 0), true, measured)).toEqual({ rooms: 5, from_record: true });
    expect(lettingRooms(house(5, null), true, measured)).toEqual({ rooms: 5, from_record: true });
  });
  it('space per room: the build\'s licences from 20 of them, else the national standards (6.51 + 13 − 7.5 m² = 129 sq ft)', () => {
    expect(HMO_STANDARD_SQFT_PER_ROOM).toBe(129); // 12.01 m² × 10.7639 = 129.27
    expect(spacePerRoom({ sample_size: 20, p10_sqft: 258.25, median_sqft: 341 })).toEqual({ bound_sqft: 258, typical_sqft: 341, source: 'hmo_licences', sample_size: 20 });
    expect(spacePerRoom({ sample_size: 19, p10_sqft: 258.25, median_sqft: 341 })).toEqual({ bound_sqft: 129, typical_sqft: null, source: 'national_standards', sample_size: 19 });
    expect(spacePerRoom({ sample_size: 0, p10_sqft: null, median_sqft: null })).toEqual({ bound_sqft: 129, typical_sqft: null, source: 'national_standards', sample_size: 0 });
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
  it('two 3-bedroom houses of 603 and 1,281 sq ft: the small one lets 2 rooms and is worth two thirds', () => {
    const small = valueHmo({ ...input, bedrooms: 3, floor_area_sqft: 603 }, opts);
    const big = valueHmo({ ...input, bedrooms: 3, floor_area_sqft: 1281 }, opts);
    // 2 × £700 × 12 = £16,800 ÷ 7% = £240,000; 3 × £700 × 12 = £25,200 ÷ 7% = £360,000.
    expect(small.gross_rent_pcm).toEqual({ total: 1400, per_room_avg: 700, rooms: 2 });
    expect(big.gross_rent_pcm).toEqual({ total: 2100, per_room_avg: 700, rooms: 3 });
    expect(small.hmo_sale_value).toEqual({ point: 240_000, low: 200_000, high: 280_000, confidence: 'low' });
    expect(big.hmo_sale_value).toEqual({ point: 360_000, low: 300_000, high: 420_000, confidence: 'high' });
  });
  it('confidence: high local evidence, medium district, low with rooms not the recorded bedrooms or borrowed figures', () => {
    const local = { ...input, rooms_from_record: true };
    expect(hmoConfidence(local)).toBe('high');
    expect(hmoConfidence({ ...local, hmo_yield: { ...input.hmo_yield, level: 'district' } })).toBe('medium');
    expect(hmoConfidence({ ...local, rooms_from_record: false })).toBe('low');
    expect(hmoConfidence({ ...local, room_rent: { ...input.room_rent, level: 'district', source: 'ons_district' } })).toBe('low');
    expect(hmoConfidence({ ...local, hmo_yield: { ...input.hmo_yield, level: 'all_areas' } })).toBe('low');
    expect(valueHmo({ ...input, bedrooms: null }, opts).hmo_sale_value.confidence).toBe('low');
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
