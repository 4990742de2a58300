import { trueValue, type AreaIndex } from './area-index.ts';
import { HEDONIC, RENT } from './params.ts';
import { rng } from './prng.ts';
import { daysInMonth, firstDay, monthYear, type DayIdx, type MonthIdx } from './time.ts';
import type { Property } from './units.ts';

/** Private rent level in month m relative to `today` (1 at today), from RENT.growth by year. */
export function rentIndex(m: MonthIdx, today: MonthIdx): number {
  return Math.exp(cumLog(m) - cumLog(today));
}

/** Cumulative log rent growth from 1990-01 to month m (cached per month). */
const CUM_FROM = 1990 * 12;
const cum: number[] = [0];
function cumLog(m: MonthIdx): number {
  const i = Math.max(0, m - CUM_FROM);
  while (cum.length <= i) {
    const t = CUM_FROM + cum.length - 1;
    cum.push(cum[cum.length - 1]! + Math.log1p(RENT.growth[monthYear(t)] ?? 0.015) / 12);
  }
  return cum[i]!;
}

export interface RentTruth {
  privateRented: boolean;
  hmo: boolean;
  rooms: number;
  /** True monthly rent of the whole property at `today`. */
  rentToday: number;
  /** True monthly rent of one room at `today` (HMO only). */
  roomRentToday: number | undefined;
}

/**
 * True rents: gross yield of the town, adjusted by type and by how cheap the home is for
 * its town (cheaper homes yield more), applied to today's true value. HMOs (larger houses,
 * mostly in student districts) let by the room.
 */
export function rentTruth(seed: number, p: Property, index: AreaIndex, today: MonthIdx): RentTruth {
  const r = rng(seed, 'rent', p.uprn);
  const value = trueValue(p.baseValue, p.district.code, today, index);
  const townTypical = p.town.ppsqm * HEDONIC.refArea * (index.at(p.district.code, today) / 100);
  const yieldPct = (p.town.grossYield + RENT.typeYieldAdj[p.type]) * Math.pow(value / townTypical, RENT.cheapnessElasticity);
  const rentToday = Math.round(((value * yieldPct) / 12) * Math.exp(r.gauss(0, 0.05)));
  const privateRented = r.chance(RENT.privateRentedShare);
  const hmoShare = p.district.spec.student ? RENT.hmoShareStudent : RENT.hmoShareOther;
  const hmo = privateRented && p.type !== 'F' && p.bedrooms >= 3 && r.chance(hmoShare / RENT.privateRentedShare);
  const rooms = hmo ? p.bedrooms : 0;
  const roomRentToday = hmo
    ? Math.round(p.town.roomRent * Math.exp(0.05 * p.quality + 0.5 * p.unitPremium + r.gauss(0, 0.05)))
    : undefined;
  return { privateRented, hmo, rooms, rentToday, roomRentToday };
}

export interface Let {
  day: DayIdx;
  month: MonthIdx;
  kind: 'whole' | 'room';
  trueRent: number;
  observedRent: number;
  furnished: 'furnished' | 'part' | 'unfurnished';
}

/**
 * Tenancies agreed from `from` to `today`: whole-property lets (or one let per room for an
 * HMO) at exponential gaps around the mean tenancy length. The agreed rent scatters around
 * the true rent with log SD RENT.observedSd (negotiation, condition, timing).
 */
export function letsFor(seed: number, p: Property, rt: RentTruth, from: MonthIdx, today: MonthIdx): Let[] {
  if (!rt.privateRented) return [];
  const r = rng(seed, 'lets', p.uprn);
  const out: Let[] = [];
  const streams = rt.hmo ? rt.rooms : 1;
  const start = Math.max(from, p.builtMonth ?? from);
  for (let s = 0; s < streams; s++) {
    const mean = rt.hmo ? 12 : RENT.meanTenancyMonths;
    let t = start + Math.floor(r.next() * mean);
    while (t < today) {
      const base = rt.hmo ? rt.roomRentToday! : rt.rentToday;
      const trueRent = Math.round(base * rentIndex(t, today));
      const observed = Math.round((trueRent * Math.exp(r.gauss(0, RENT.observedSd))) / 5) * 5;
      out.push({
        day: firstDay(t) + r.int(0, daysInMonth(t) - 1),
        month: t,
        kind: rt.hmo ? 'room' : 'whole',
        trueRent,
        observedRent: Math.max(50, observed),
        furnished: rt.hmo ? 'furnished' : r.weighted([['unfurnished', 0.55], ['furnished', 0.3], ['part', 0.15]]),
      });
      t += Math.max(6, Math.round(-mean * Math.log(1 - r.next())));
    }
  }
  return out.sort((a, b) => a.day - b.day);
}

/** ONS category label of a whole-property let. */
export function onsCategory(p: Property): string {
  if (p.type === 'F' && p.bedrooms === 1 && p.floorArea < 40) return 'Studio';
  return ['One Bedroom', 'Two Bedrooms', 'Three Bedrooms'][p.bedrooms - 1] ?? 'Four or more Bedrooms';
}

/**
 * Streaming quartiles over rents: a histogram of 1%-wide log bins (bounded memory), so the
 * ONS-style table needs no list of every rent.
 */
export class RentStats {
  count = 0;
  sum = 0;
  private bins = new Map<number, number>();

  add(rent: number): void {
    this.count++;
    this.sum += rent;
    const b = Math.round(Math.log(rent) * 100);
    this.bins.set(b, (this.bins.get(b) ?? 0) + 1);
  }

  quantile(q: number): number {
    const keys = [...this.bins.keys()].sort((a, b) => a - b);
    const target = q * this.count;
    let acc = 0;
    for (const k of keys) {
      acc += this.bins.get(k)!;
      if (acc >= target) return Math.exp(k / 100);
    }
    return Math.exp(keys[keys.length - 1]! / 100);
  }
}
