/**
 * HMO valuation (docs/valuation.md, "HMO"): letting rooms, rent per room, total rent, sale
 * value from an area HMO yield, and a confidence label. Pure: the caller looks the figures
 * up and passes them in.
 */

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

/** Rooms let: every bedroom, plus the living room when it is not kept communal; at least 1. */
export function lettingRooms(bedrooms: number, livingRoom: boolean): number {
  return Math.max(1, Math.round(bedrooms) + (livingRoom ? 0 : 1));
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

export interface HmoInput {
  uprn: string;
  /** Recorded bedrooms, or null (then the typical count for the kind is assumed). */
  bedrooms: number | null;
  kind: 'house' | 'flat';
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
 * outcode's own sales, bedrooms recorded. low: an ONS/thin room rent, a yield borrowed from
 * all areas, or assumed bedrooms. medium otherwise (district figures).
 */
export function hmoConfidence(i: Pick<HmoInput, 'bedrooms' | 'room_rent' | 'hmo_yield'>): HmoConfidence {
  const evidence = i.room_rent.source === 'evidence';
  if (i.bedrooms === null || !evidence || i.hmo_yield.level === 'all_areas') return 'low';
  if (local(i.room_rent.level) && local(i.hmo_yield.level)) return 'high';
  return 'medium';
}

const round = (v: number, step: number) => Math.round(v / step) * step;

export function valueHmo(i: HmoInput, o: HmoOptions): HmoValuation {
  const bedrooms = i.bedrooms ?? HMO_TYPICAL_BEDROOMS[i.kind];
  const rooms = lettingRooms(bedrooms, o.living_room);
  const perRoom = round(roomRent(i.room_rent.median_pcm, o), 5);
  const total = perRoom * rooms;
  const annual = total * 12;
  // Sale value = annual rent ÷ the area's HMO yield; the range is the yields' interquartile range.
  const point = round(annual / (i.hmo_yield.gross_yield_pct / 100), 1000);
  const low = round(annual / (Math.max(i.hmo_yield.p75_yield_pct, i.hmo_yield.gross_yield_pct) / 100), 1000);
  const high = round(annual / (Math.max(0.1, Math.min(i.hmo_yield.p25_yield_pct, i.hmo_yield.gross_yield_pct)) / 100), 1000);
  return {
    uprn: i.uprn,
    hmo_sale_value: { point, low, high, confidence: hmoConfidence(i) },
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
