import { bngToWgs84 } from '../sources/grid.ts';
import { BUILDING_SUFFIXES, HOUSE_NAME_SUFFIXES, STREET_STEMS, STREET_TYPES, WELSH_STEMS } from './names.ts';
import { ADDRESS_PATTERNS, BEDROOMS, FLAT_SHARE, FLOOR_AREA, FLOOR_AREA_SD, HEDONIC, MESS, TOWNS, type PropType, type TownSpec } from './params.ts';
import { flagsAt, type PlanningFlags, type PlanningShape } from './planning.ts';
import { rng, type Rng } from './prng.ts';
import { sectorDigit, unitLetters, UNITS_PER_SECTOR, type District } from './region.ts';
import { monthOf, type MonthIdx } from './time.ts';

/** One residential address (a UPRN in the address base) with everything that drives its value. */
export interface Property {
  uprn: number;
  parentUprn: number | undefined;
  town: TownSpec;
  district: District;
  postcode: string;
  /** The postcode it had until `postcodeChangedAt` (a terminated predecessor), if any. */
  oldPostcode: string | undefined;
  postcodeChangedAt: MonthIdx | undefined;
  e: number;
  n: number;
  lat: string; // as written, 7 decimals
  lng: string;
  subBuilding: string | undefined; // `FLAT 2`
  buildingName: string | undefined; // `ALBION COURT` or `32A`
  buildingNumber: string | undefined; // `32`
  streetStem: string;
  streetType: [string, string];
  street: string;
  locality: string | undefined;
  type: PropType;
  builtForm: string;
  floorLevel: number | undefined;
  bedrooms: number;
  habitableRooms: number;
  floorArea: number; // m², 1 decimal, the true area
  yearBuilt: number;
  /** Month of completion for homes built in the history window (their first sale is new-build). */
  builtMonth: MonthIdx | undefined;
  tenure: 'F' | 'L';
  epcBand: number; // 1 = A … 7 = G, current
  quality: number; // standard normal, unobserved
  unitPremium: number; // log, shared by the postcode unit
  flags: PlanningFlags;
  /** True market value at BASE_MONTH (2023-01), GBP. */
  baseValue: number;
  /** Not in the address base: exists only as an address on sales (truth: no UPRN). */
  phantom: boolean;
}

export interface Unit {
  district: District;
  postcode: string;
  sector: number;
  e: number;
  n: number;
  dointr: MonthIdx;
  predecessor: { postcode: string; doterm: MonthIdx } | undefined;
  properties: Property[];
  /** Sale-only addresses that are not in the address base. */
  phantoms: Property[];
  /** UPRNs in OS Open UPRN only: parent buildings of flats (and nothing else). */
  parentUprns: { uprn: number; e: number; n: number; lat: string; lng: string }[];
}

/** Allocates UPRNs upward from a town's base with small random gaps, as real UPRN ranges look. */
export class UprnAllocator {
  private next = new Map<string, number>();
  take(town: TownSpec, r: Rng): number {
    const cur = this.next.get(town.key) ?? town.uprnBase;
    const u = cur + r.int(1, 5);
    // A town with more homes than its range holds would hand out another town's UPRNs.
    if (u >= UPRN_CEILING.get(town.key)!) throw new Error(`${town.key} has run out of UPRNs (${town.uprnBase} up to ${UPRN_CEILING.get(town.key)!}): too many addresses for its weight`);
    this.next.set(town.key, u);
    return u;
  }
}

/** The first UPRN above each town's range: the next town's base, else the largest 12-digit number + 1. */
const UPRN_CEILING = new Map(TOWNS.map((town) => [town.key, Math.min(1e12, ...TOWNS.map((t) => t.uprnBase).filter((b) => b > town.uprnBase))]));

const HISTORY_START_YEAR = 2000;
/** Flats of a conversion named by floor, bottom up (a conversion has at most four). */
const FLOOR_FLATS = ['GROUND FLOOR FLAT', 'FIRST FLOOR FLAT', 'SECOND FLOOR FLAT', 'TOP FLOOR FLAT'];
const FLATS_PER_BUILDING = 0.35 * 3 + 0.65 * 18;
const TERMINATION_FROM = monthOf('2002-01');
const OLD_INTRO = monthOf('1980-01');

function yearBuiltFor(r: Rng, kind: 'house' | 'conversion' | 'block', urban: number, todayYear: number): number {
  if (kind === 'conversion') return r.weighted([[1870, 0.5], [1905, 0.3], [1935, 0.2]]) + r.int(0, 25);
  if (kind === 'block') {
    const y = r.weighted([[1935, 0.1], [1965, 0.3], [1985, 0.3], [2003, 0.17], [2015, 0.13]]) + r.int(0, 9);
    return Math.min(y, todayYear);
  }
  const era = r.weighted([
    [1860, 0.12 + 0.25 * urban], [1905, 0.15 + 0.1 * urban], [1932, 0.18], [1955, 0.2], [1978, 0.18 - 0.08 * urban], [2004, 0.1],
  ]);
  return Math.min(era + r.int(0, era >= 2004 ? 21 : 24), todayYear);
}

function bedroomsFor(r: Rng, type: PropType): number {
  return r.weighted(BEDROOMS[type]);
}

function floorAreaFor(r: Rng, type: PropType, beds: number): number {
  const table = FLOOR_AREA[type];
  const keys = Object.keys(table).map(Number);
  const k = Math.min(Math.max(beds, Math.min(...keys)), Math.max(...keys));
  const a = table[k]! * Math.exp(r.gauss(0, FLOOR_AREA_SD));
  return Math.round(a * 10) / 10;
}

/** EPC band 1 (A) … 7 (G) from age and quality; newer and better-kept homes rate higher. */
function epcBandFor(r: Rng, yearBuilt: number, quality: number, type: PropType): number {
  let score = yearBuilt >= 2012 ? 2.1 : yearBuilt >= 1990 ? 3.1 : yearBuilt >= 1950 ? 3.6 : 3.9;
  if (type === 'F') score -= 0.3;
  score += r.gauss(0, 0.7) - 0.3 * quality;
  return Math.min(7, Math.max(1, Math.round(score)));
}

/** Hedonic base value at 2023-01: the property's true value in the base month. */
export function hedonicValue(p: Omit<Property, 'baseValue'>): number {
  const h = HEDONIC;
  let logv = Math.log(p.town.ppsqm * p.district.spec.ppsqm * h.refArea) + h.areaElasticity * Math.log(p.floorArea / h.refArea);
  logv += Math.log(h.type[p.type]);
  logv += h.qualitySd * p.quality + p.unitPremium;
  logv += h.epcPerBand * (4 - p.epcBand);
  if (p.flags.conservation) logv += h.conservation;
  if (p.flags.floodZone === 3) logv += h.floodZone3;
  else if (p.flags.floodZone === 2) logv += h.floodZone2;
  if (p.yearBuilt >= 2012) logv += h.newBuild;
  else if (p.type !== 'F' && p.yearBuilt < 1900) logv += h.period;
  else if (p.yearBuilt >= 1950 && p.yearBuilt <= 1982) logv += h.postWar;
  return Math.round(Math.exp(logv));
}

interface Street {
  stem: string;
  type: [string, string];
  nextNumber: number;
}

/**
 * Generates the postcode units of one sector, one at a time, until the sector's quota of
 * addresses is reached. Everything about a unit comes from the stream (seed, district,
 * sector, unit number), so units are independent of one another except for the UPRN
 * counter and the street carried over to the next unit.
 */
export function* sectorUnits(
  seed: number,
  d: District,
  sector: number,
  quota: number,
  uprns: UprnAllocator,
  planning: PlanningShape[],
  today: MonthIdx,
): Generator<Unit> {
  const todayYear = Math.floor(today / 12);
  const sr = rng(seed, 'sector', d.code, sector);
  const ang = sr.uniform(0, 2 * Math.PI);
  const rad = sector === 0 ? 0 : sr.uniform(300, 1100);
  const sc: [number, number] = [d.centre[0] + rad * Math.cos(ang), d.centre[1] + rad * Math.sin(ang)];
  // Unit codes in a shuffled order: live units from the front, terminated predecessors from the back.
  const codes = Array.from({ length: UNITS_PER_SECTOR }, (_, i) => i);
  for (let i = codes.length - 1; i > 0; i--) {
    const j = sr.int(0, i);
    [codes[i], codes[j]] = [codes[j]!, codes[i]!];
  }
  const outward = `${d.code} ${sectorDigit(sector)}`;
  let street: Street | undefined;
  let left = quota;
  let k = 0;
  let back = UNITS_PER_SECTOR - 1;
  while (left > 0) {
    if (k >= back) throw new Error(`sector ${outward} ran out of unit codes`);
    const r = rng(seed, 'unit', d.code, sector, k);
    const postcode = outward + unitLetters(codes[k]!);
    const size = Math.min(left, r.int(15, 40));
    if (!street || r.chance(0.6)) {
      const welsh = d.town.country === 'W' && r.chance(0.15);
      street = { stem: welsh ? r.pick(WELSH_STEMS) : r.pick(STREET_STEMS), type: welsh ? ['', ''] : r.pick(STREET_TYPES), nextNumber: r.int(1, 3) };
    }
    const ue = sc[0] + r.gauss(0, 350);
    const un = sc[1] + r.gauss(0, 350);
    const unitPremium = r.gauss(0, HEDONIC.unitPremiumSd) - 0.05 * Math.min(3, Math.hypot(ue - d.town.centre[0], un - d.town.centre[1]) / 2000);
    const dir = r.uniform(0, Math.PI);
    const predecessor = r.chance(MESS.terminatedUnitShare)
      ? { postcode: outward + unitLetters(codes[back--]!), doterm: TERMINATION_FROM + r.int(0, 18 * 12) }
      : undefined;
    const props: Property[] = [];
    const parents: Unit['parentUprns'] = [];
    const place = (i: number): [number, number] => {
      const along = (i - size / 2) * 9 + r.gauss(0, 2);
      return [Math.round(ue + along * Math.cos(dir) + r.gauss(0, 6)), Math.round(un + along * Math.sin(dir) + r.gauss(0, 6))];
    };
    // Target share of addresses that are flats; a flat building holds ~13 flats on average
    // (conversions 2–4, blocks 6–30), so the per-building probability is much lower.
    const phi = Math.min(0.95, FLAT_SHARE.base + FLAT_SHARE.perUrban * d.spec.urban + d.town.flatBias);
    const flatShare = phi / (FLATS_PER_BUILDING - (FLATS_PER_BUILDING - 1) * phi);
    let semiPending = false;
    while (props.length < size) {
      const kind = r.chance(flatShare) ? (r.chance(0.35) ? 'conversion' : 'block') : 'house';
      const number = street.nextNumber;
      street.nextNumber += 2;
      const yearBuilt = yearBuiltFor(r, kind, d.spec.urban, todayYear);
      const builtMonth = yearBuilt >= HISTORY_START_YEAR ? Math.min(yearBuilt * 12 + r.int(0, 11), today - 1) : undefined;
      const [be, bn] = place(props.length);
      const base = { e: be, n: bn, yearBuilt, builtMonth };
      // Real address patterns draw from their own stream (the rest of the region is unchanged).
      const pr = rng(seed, 'address-pattern', postcode, number);
      if (kind === 'house') {
        let type: PropType;
        let builtForm: string;
        if (semiPending) {
          type = 'S';
          builtForm = 'Semi-Detached';
          semiPending = false;
        } else {
          const u = d.spec.urban;
          type = r.weighted<PropType>([['T', 0.2 + 0.5 * u], ['S', 0.45 - 0.25 * u], ['D', Math.max(0.03, 0.35 - 0.3 * u)]]);
          builtForm = type === 'D' ? 'Detached' : type === 'S' ? 'Semi-Detached' : r.chance(0.25) ? 'End-Terrace' : 'Mid-Terrace';
          if (type === 'S') semiPending = true;
        }
        props.push(makeProperty(seed, d, uprns, planning, {
          ...base, type, builtForm, subBuilding: undefined, buildingNumber: String(number),
          buildingName: pr.chance(ADDRESS_PATTERNS.namedHouse) ? `${pr.pick(STREET_STEMS)} ${pr.pick(HOUSE_NAME_SUFFIXES)}` : undefined,
          parentUprn: undefined, floorLevel: undefined, street, postcode, predecessor, unitPremium,
        }, today));
      } else {
        const parent = uprns.take(d.town, r);
        const pll = bngToWgs84(be, bn);
        parents.push({ uprn: parent, e: be, n: bn, lat: pll.lat.toFixed(7), lng: pll.lng.toFixed(7) });
        const nFlats = Math.min(size - props.length, kind === 'conversion' ? r.int(2, 4) : r.int(6, 30));
        const named = kind === 'block' && r.chance(0.5);
        const lettered = kind === 'conversion' && r.chance(0.5);
        const bname = named ? `${r.pick(STREET_STEMS)} ${r.pick(BUILDING_SUFFIXES)}` : undefined;
        const byFloor = kind === 'conversion' && !lettered && pr.chance(ADDRESS_PATTERNS.floorNamedConversion);
        for (let f = 1; f <= nFlats; f++) {
          const [fe, fn] = [be + r.int(-3, 3), bn + r.int(-3, 3)];
          props.push(makeProperty(seed, d, uprns, planning, {
            e: fe, n: fn, yearBuilt, builtMonth, type: 'F',
            builtForm: kind === 'block' ? 'Purpose-Built' : 'Converted',
            subBuilding: lettered ? undefined : byFloor ? FLOOR_FLATS[f - 1] : `FLAT ${f}`,
            buildingName: lettered ? `${number}${'ABCDEFGH'[f - 1]}` : bname,
            buildingNumber: lettered ? undefined : named && r.chance(0.5) ? undefined : String(number),
            parentUprn: parent, floorLevel: Math.floor((f - 1) / (kind === 'block' ? 4 : 1)),
            street, postcode, predecessor, unitPremium,
          }, today));
        }
      }
    }
    // Sales of addresses the address base does not hold (plots, unregistered conversions).
    const phantoms: Property[] = [];
    const nPhantom = r.poisson(size * MESS.ppdNoUprnShare);
    for (let i = 0; i < nPhantom; i++) {
      const [pe, pn] = place(size + i);
      const ph = makeProperty(seed, d, undefined, planning, {
        e: pe, n: pn, yearBuilt: yearBuiltFor(r, 'house', d.spec.urban, todayYear), builtMonth: undefined,
        type: 'T', builtForm: 'Mid-Terrace', subBuilding: undefined, buildingName: `PLOT ${r.int(1, 60)}`,
        buildingNumber: undefined, parentUprn: undefined, floorLevel: undefined, street, postcode, predecessor, unitPremium,
        phantomKey: `${postcode}/${i}`,
      }, today);
      phantoms.push(ph);
    }
    let se = 0;
    let sn = 0;
    for (const p of props) {
      se += p.e;
      sn += p.n;
    }
    const firstBuilt = props.every((p) => p.builtMonth !== undefined) ? Math.min(...props.map((p) => p.builtMonth!)) : undefined;
    yield {
      district: d, postcode, sector, e: Math.round(se / props.length), n: Math.round(sn / props.length),
      dointr: firstBuilt ?? OLD_INTRO, predecessor, properties: props, phantoms, parentUprns: parents,
    };
    left -= props.length;
    k++;
  }
}

interface PropSeed {
  e: number;
  n: number;
  yearBuilt: number;
  builtMonth: MonthIdx | undefined;
  type: PropType;
  builtForm: string;
  subBuilding: string | undefined;
  buildingName: string | undefined;
  buildingNumber: string | undefined;
  parentUprn: number | undefined;
  floorLevel: number | undefined;
  street: Street;
  postcode: string;
  predecessor: Unit['predecessor'];
  unitPremium: number;
  phantomKey?: string;
}

function makeProperty(
  seed: number,
  d: District,
  uprns: UprnAllocator | undefined,
  planning: PlanningShape[],
  s: PropSeed,
  today: MonthIdx,
): Property {
  const alloc = uprns ? uprns.take(d.town, rng(seed, 'uprn-gap', d.code, s.postcode, s.e, s.n)) : 0;
  const r = rng(seed, 'property', s.phantomKey ?? alloc);
  const bedrooms = bedroomsFor(r, s.type);
  const floorArea = floorAreaFor(r, s.type, bedrooms);
  const quality = r.normal();
  const { lat, lng } = bngToWgs84(s.e, s.n);
  const latStr = lat.toFixed(7);
  const lngStr = lng.toFixed(7);
  const flags = flagsAt(planning, Number(lngStr), Number(latStr));
  const street = s.street.type[0] ? `${s.street.stem} ${s.street.type[0]}` : s.street.stem;
  // A terminated predecessor covers only homes that existed before it was terminated.
  const pred = s.predecessor && (s.builtMonth === undefined || s.builtMonth < s.predecessor.doterm) ? s.predecessor : undefined;
  // Built whole with a placeholder value, then valued in place (no copy of every field per home).
  const p: Property = {
    uprn: alloc,
    parentUprn: s.parentUprn,
    town: d.town,
    district: d,
    postcode: s.postcode,
    oldPostcode: pred?.postcode,
    postcodeChangedAt: pred?.doterm,
    e: s.e,
    n: s.n,
    lat: latStr,
    lng: lngStr,
    subBuilding: s.subBuilding,
    buildingName: s.buildingName,
    buildingNumber: s.buildingNumber,
    streetStem: s.street.stem,
    streetType: s.street.type,
    street,
    locality: d.spec.locality,
    type: s.type,
    builtForm: s.builtForm,
    floorLevel: s.floorLevel,
    bedrooms,
    habitableRooms: bedrooms + (s.type === 'F' ? 1 : bedrooms >= 4 ? 2 : r.int(1, 2)),
    floorArea,
    yearBuilt: s.yearBuilt,
    builtMonth: s.builtMonth !== undefined && s.builtMonth < today ? s.builtMonth : undefined,
    tenure: s.type === 'F' || r.chance(0.03) ? 'L' : 'F',
    epcBand: epcBandFor(r, s.yearBuilt, quality, s.type),
    quality,
    unitPremium: s.unitPremium,
    flags,
    phantom: s.phantomKey !== undefined,
    baseValue: 0,
  };
  p.baseValue = hedonicValue(p);
  return p;
}
