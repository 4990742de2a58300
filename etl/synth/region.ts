import { TOWNS, townWeights, type DistrictSpec, type Mix, type TownSpec } from './params.ts';

/** A postcode district of the plan with its address quota and centre on the grid. */
export interface District {
  town: TownSpec;
  spec: DistrictSpec;
  code: string;
  centre: [number, number];
  quota: number;
  /** Sectors used (1–10) and each one's quota. */
  sectorQuotas: number[];
}

/** Incode letters: Royal Mail never uses C, I, K, M, O or V in the inward code. */
export const INCODE_LETTERS = 'ABDEFGHJLNPQRSTUWXYZ';
/** Unit codes available per sector (letter pairs). */
export const UNITS_PER_SECTOR = INCODE_LETTERS.length ** 2;
/** Addresses a sector holds at most: at 15 per unit that is 333 units plus terminated predecessors, under the 400 codes. */
const SECTOR_CAPACITY = 5_000;
const SECTOR_TARGET = 2_000;

/** Splits `total` into integer shares proportional to `weights` (largest remainder, stable). */
export function apportion(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const raw = weights.map((w) => (total * w) / sum);
  const out = raw.map(Math.floor);
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => [r - Math.floor(r), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left <= 0) break;
    out[i]!++;
    left--;
  }
  return out;
}

/** Districts a postcode area holds at most (outward codes run to 99). */
const MAX_DISTRICT = 99;
/** Ring districts in the town's own area, numbered 20 to 99. */
const OWN_AREA_RING = MAX_DISTRICT - 20 + 1;

/**
 * The code and offset of a town's k-th extra suburban district: first in its own postcode
 * area from 20 up, then in its overflow areas (`TownSpec.overflowAreas`) from 1 up, in widening
 * rings. Throws when the town has no room left.
 */
function extraDistrict(town: TownSpec, area: string, k: number, most: number): DistrictSpec {
  const inOwn = k < OWN_AREA_RING;
  const o = k - OWN_AREA_RING;
  const overflow = inOwn ? undefined : town.overflowAreas?.[Math.floor(o / MAX_DISTRICT)];
  if (!inOwn && overflow === undefined) {
    throw new Error(`too many addresses for ${town.key}: the region holds at most about ${most} with these town weights`);
  }
  const code = inOwn ? `${area}${20 + k}` : `${overflow}${(o % MAX_DISTRICT) + 1}`;
  // The own area's ring is 7 km out (as before the overflow areas: those regions keep their bytes); each overflow area's 3 km further.
  const radius = 7000 + (inOwn ? 0 : 3000 * (Math.floor(o / MAX_DISTRICT) + 1));
  const ang = k * 2.4;
  return { code, offset: [Math.round(radius * Math.cos(ang)), Math.round(radius * Math.sin(ang))], ppsqm: 0.85, urban: 0.15 };
}

/**
 * The plan of the region for N addresses: towns by weight (`mix`, params.ts), districts
 * evenly within a town, sectors of about 2,000 addresses. Towns whose districts would
 * overflow get extra suburban districts in rings around the town (`extraDistrict`).
 */
export function planRegion(addresses: number, mix: Mix = 'demo'): District[] {
  const weights = townWeights(mix);
  const townQuotas = apportion(addresses, weights);
  const out: District[] = [];
  const used = new Set(TOWNS.flatMap((t) => t.districts.map((d) => d.code)));
  TOWNS.forEach((town, ti) => {
    const q = townQuotas[ti]!;
    const specs = [...town.districts];
    const area = /^[A-Z]+/.exec(specs[0]!.code)![0];
    const room = specs.length + OWN_AREA_RING + MAX_DISTRICT * (town.overflowAreas?.length ?? 0);
    const most = Math.floor((room * SECTOR_CAPACITY * 10) / (weights[ti]! / weights.reduce((a, b) => a + b, 0)));
    for (let k = 0; q / specs.length > SECTOR_CAPACITY * 10; k++) {
      // A ring code may be one of the town's own (Cardiff's CF23 and CF24): passed over.
      const extra = extraDistrict(town, area, k, most);
      if (used.has(extra.code)) continue;
      used.add(extra.code);
      specs.push(extra);
    }
    const dq = apportion(q, specs.map(() => 1));
    specs.forEach((spec, di) => {
      const quota = dq[di]!;
      const nSectors = Math.min(10, Math.max(1, Math.ceil(quota / SECTOR_TARGET)));
      out.push({
        town,
        spec,
        code: spec.code,
        centre: [town.centre[0] + spec.offset[0], town.centre[1] + spec.offset[1]],
        quota,
        sectorQuotas: apportion(quota, Array.from({ length: nSectors }, () => 1)),
      });
    });
  });
  return out;
}

/** Sector digit of the s-th sector of a district (1…9, then 0). */
export function sectorDigit(s: number): number {
  return (s + 1) % 10;
}

/** Letter pair for unit code number k (0 … 399). */
export function unitLetters(k: number): string {
  const n = INCODE_LETTERS.length;
  return INCODE_LETTERS[Math.floor(k / n) % n]! + INCODE_LETTERS[k % n]!;
}
