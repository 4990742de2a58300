/**
 * HMO valuation (docs/valuation-rental-hmo.md, "HMO valuation"): letting rooms bounded by the
 * floor area, rent per room, total rent, sale value from an area HMO yield, and a confidence
 * label. Pure: the caller looks the figures up and passes them in.
 */
import { SQFT_PER_M2 } from './lookups.ts';

export type FinishQuality = 'below_average' | 'average' | 'above_average' | 'very_high';
export type HmoConfidence = 'high' | 'medium' | 'low';
export type AreaLevel = 'sector' | 'outcode' | 'district' | 'all_areas';

/**
 * Rent per room relative to the area median room let. Not measurable on the data (lets do
 * not record finish, parking or garden): set from agents' usual spreads and documented as such.
 */
export const HMO_FINISH_FACTOR: Readonly<Record<FinishQuality, number>> = {
  below_average: 0.9,
  average: 1,
  above_average: 1.08,
  very_high: 1.15,
};
/** A house without parking or outside space lets each room for this much less than the median. */
export const HMO_NO_PARKING_FACTOR = 0.97;
export const HMO_NO_OUTSIDE_SPACE_FACTOR = 0.97;
/** Bedrooms assumed when the record has none (no EPC): the commonest count by kind. */
export const HMO_TYPICAL_BEDROOMS = { house: 3, flat: 2 } as const;

export interface HmoOptions {
  finish_quality: FinishQuality;
  living_room: boolean;
  parking: boolean;
  outside_space: boolean;
}

/** Licensed HMOs (matched, households and floor area known) a build needs to measure its own space per room. */
export const MIN_SPACE_LICENCES = 20;
/**
 * The national standards' gross floor area per letting room, used when the build has too few
 * licences: the 6.51 m² minimum single sleeping room (The Licensing of HMOs (Mandatory
 * Conditions of Licences) (England) Regulations 2018) plus 5.5 m² of shared space per person,
 * the nationally described space standard's (DCLG 2015) 13 m² of gross internal area per extra
 * single bedroom less its 7.5 m² single bedroom. 12.01 m² ≈ 129 sq ft.
 */
export const HMO_STANDARD_SQFT_PER_ROOM = Math.round((6.51 + (13 - 7.5)) * SQFT_PER_M2);

/** Gross floor area per let household, from the build's licensed HMOs or the national standards. */
export interface SpacePerRoomFigure {
  /** Rooms a floor area holds = floor(area ÷ this): the 10th percentile, or the standards' figure. */
  bound_sqft: number;
  /** Bedrooms estimated from a floor area = round(area ÷ this): the median; null without the licences. */
  typical_sqft: number | null;
  source: 'hmo_licences' | 'national_standards';
  /** Licences measured (fewer than MIN_SPACE_LICENCES: the standards' figure is used instead). */
  sample_size: number;
}

/** The build's own figures when it has enough licences, else the national standards' bound. */
export function spacePerRoom(m: { sample_size: number; p10_sqft: number | null; median_sqft: number | null }): SpacePerRoomFigure {
  if (m.sample_size >= MIN_SPACE_LICENCES && m.p10_sqft !== null && m.median_sqft !== null) {
    return { bound_sqft: Math.round(m.p10_sqft), typical_sqft: Math.round(m.median_sqft), source: 'hmo_licences', sample_size: m.sample_size };
  }
  return { bound_sqft: HMO_STANDARD_SQFT_PER_ROOM, typical_sqft: null, source: 'national_standards', sample_size: m.sample_size };
}

/** The home as the room count sees it: recorded bedrooms and certificate floor area, each null when unknown. */
export interface HmoHome {
  bedrooms: number | null;
  floor_area_sqft: number | null;
  kind: 'house' | 'flat';
}

/**
 * Rooms let: every bedroom, plus the living room when it is not kept communal, but no more than
 * the floor area holds; at least 1. Unrecorded bedrooms are estimated from the floor area (at
 * the licences' median space per household), else the typical count for the kind is assumed.
 * `from_record`: the count is the recorded bedrooms' (not assumed, estimated or cut by the floor area).
 */
export function lettingRooms(h: HmoHome, livingRoom: boolean, space: SpacePerRoomFigure): { rooms: number; from_record: boolean } {
  const area = h.floor_area_sqft !== null && h.floor_area_sqft > 0 ? h.floor_area_sqft : null;
  const bedrooms =
    h.bedrooms ?? (area !== null && space.typical_sqft !== null ? Math.max(1, Math.round(area / space.typical_sqft)) : HMO_TYPICAL_BEDROOMS[h.kind]);
  const wanted = Math.max(1, Math.round(bedrooms) + (livingRoom ? 0 : 1));
  const holds = area === null ? wanted : Math.max(1, Math.floor(area / space.bound_sqft));
  const rooms = Math.min(wanted, holds);
  return { rooms, from_record: h.bedrooms !== null && rooms === wanted };
}

/** The area median room rent adjusted for finish, parking and outside space (GBP pcm). */
export function roomRent(areaMedianPcm: number, o: HmoOptions): number {
  return (
    areaMedianPcm *
    HMO_FINISH_FACTOR[o.finish_quality] *
    (o.parking ? 1 : HMO_NO_PARKING_FACTOR) *
    (o.outside_space ? 1 : HMO_NO_OUTSIDE_SPACE_FACTOR)
  );
}

export interface RoomRentFigure {
  level: AreaLevel;
  median_pcm: number;
  /** `evidence` (at least the mart's minimum of room lets in the area) or an ONS / thin fallback. */
  source: string;
}

export interface HmoYieldFigure {
  level: AreaLevel;
  gross_yield_pct: number;
  p25_yield_pct: number;
  p75_yield_pct: number;
}

export interface HmoInput extends HmoHome {
  uprn: string;
  space_per_room: SpacePerRoomFigure;
  /** Null when unknown: outside England, which the planning layers do not cover. */
  article_4: boolean | null;
  room_rent: RoomRentFigure;
  hmo_yield: HmoYieldFigure;
  as_of: string;
}

export interface HmoValuation {
  uprn: string;
  hmo_sale_value: { point: number; low: number; high: number; confidence: HmoConfidence };
  gross_rent_pcm: { total: number; per_room_avg: number; rooms: number };
  gross_yield_pct: number;
  article_4: boolean | null;
  as_of: string;
}

const local = (l: AreaLevel) => l === 'sector' || l === 'outcode';

/**
 * high: room rent from the sector's or outcode's own lets, yield from the sector's or
 * outcode's own sales, rooms = the recorded bedrooms. low: an ONS/thin room rent, a yield
 * borrowed from all areas, or rooms assumed, estimated or cut by the floor area. medium
 * otherwise (district figures).
 */
export function hmoConfidence(i: Pick<HmoInput, 'room_rent' | 'hmo_yield'> & { rooms_from_record: boolean }): HmoConfidence {
  const evidence = i.room_rent.source === 'evidence';
  if (!i.rooms_from_record || !evidence || i.hmo_yield.level === 'all_areas') return 'low';
  if (local(i.room_rent.level) && local(i.hmo_yield.level)) return 'high';
  return 'medium';
}

const round = (v: number, step: number) => Math.round(v / step) * step;

export function valueHmo(i: HmoInput, o: HmoOptions): HmoValuation {
  const { rooms, from_record } = lettingRooms(i, o.living_room, i.space_per_room);
  const perRoom = round(roomRent(i.room_rent.median_pcm, o), 5);
  const total = perRoom * rooms;
  const annual = total * 12;
  // Sale value = annual rent ÷ the area's HMO yield; the range is the yields' interquartile range.
  const point = round(annual / (i.hmo_yield.gross_yield_pct / 100), 1000);
  const low = round(annual / (Math.max(i.hmo_yield.p75_yield_pct, i.hmo_yield.gross_yield_pct) / 100), 1000);
  const high = round(annual / (Math.max(0.1, Math.min(i.hmo_yield.p25_yield_pct, i.hmo_yield.gross_yield_pct)) / 100), 1000);
  return {
    uprn: i.uprn,
    hmo_sale_value: { point, low, high, confidence: hmoConfidence({ ...i, rooms_from_record: from_record }) },
    gross_rent_pcm: { total, per_room_avg: perRoom, rooms },
    gross_yield_pct: Math.round((10_000 * annual) / point) / 100,
    article_4: i.article_4,
    as_of: i.as_of,
  };
}

/** The first figure present, most local first. */
export function mostLocal<T>(candidates: readonly (T | undefined)[]): T | undefined {
  return candidates.find((c) => c !== undefined);
}
