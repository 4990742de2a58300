import { EPC_ODC_HEADER } from '../../schemas/sources/epc.ts';
import { ADDRESS_PATTERNS, EPC_START, MESS } from './params.ts';
import { rng, type Rng } from './prng.ts';
import type { Let } from './rents.ts';
import type { Sale } from './sales.ts';
import { dayOf, isoDay, monthOfDay, monthYear, type DayIdx, type MonthIdx } from './time.ts';
import type { Property } from './units.ts';

/** SAP efficiency score ranges of each band (A … G). */
export const BAND_SAP: [number, number][] = [[92, 100], [81, 91], [69, 80], [55, 68], [39, 54], [21, 38], [1, 20]];
export const BANDS = 'ABCDEFG';
const EPC_START_DAY = dayOf(EPC_START);

export function ageBand(year: number): string {
  const bands: [number, string][] = [
    [1899, 'before 1900'], [1929, '1900-1929'], [1949, '1930-1949'], [1966, '1950-1966'], [1975, '1967-1975'],
    [1982, '1976-1982'], [1990, '1983-1990'], [1995, '1991-1995'], [2002, '1996-2002'], [2006, '2003-2006'], [2011, '2007-2011'],
  ];
  for (const [y, label] of bands) if (year <= y) return `England and Wales: ${label}`;
  return 'England and Wales: 2012 onwards';
}

export interface Trigger {
  day: DayIdx;
  type: string;
  tenure: string;
}

/**
 * Events that made an assessor lodge a certificate: sales, lets, new builds, grant schemes,
 * from `start` (the register's first day: October 2008 in England and Wales).
 */
export function triggers(r: Rng, p: Property, sales: Sale[], lets: Let[], today: MonthIdx, start: DayIdx = EPC_START_DAY): Trigger[] {
  const out: Trigger[] = [];
  let validUntil = -Infinity;
  const events = [
    ...sales.map((s) => ({ day: s.day, kind: s.newBuild ? 'new' : 'sale' })),
    ...lets.map((l) => ({ day: l.day, kind: 'let' })),
  ].sort((a, b) => a.day - b.day);
  for (const e of events) {
    const day = e.kind === 'new' ? e.day - r.int(0, 20) : e.day - r.int(10, 100);
    if (day < start) continue;
    const need = day > validUntil;
    const p0 = e.kind === 'new' ? 1 : need ? (e.kind === 'sale' ? 0.85 : 0.75) : 0.12;
    if (!r.chance(p0)) continue;
    out.push({
      day,
      type: e.kind === 'new' ? 'new dwelling' : e.kind === 'sale' ? (r.chance(0.93) ? 'marketed sale' : 'non marketed sale') : 'rental (private)',
      tenure: e.kind === 'let' ? 'rental (private)' : e.kind === 'new' ? 'unknown' : 'owner-occupied',
    });
    validUntil = day + 3652;
  }
  const years = (today - monthOfDay(start)) / 12;
  const extra = r.poisson(0.012 * years);
  for (let i = 0; i < extra; i++) {
    out.push({ day: start + r.int(0, Math.round(years * 365)), type: r.pick(['ECO assessment', 'none of the above', 'assessment for green deal']), tenure: 'owner-occupied' });
  }
  return out.filter((t) => p.builtMonth === undefined || monthOfDay(t.day) >= p.builtMonth).sort((a, b) => a.day - b.day);
}

/**
 * Lower case, then a capital for each ASCII letter at the start or after whitespace or a
 * hyphen: what `.replace(/(^|[\s-])([a-z])/g, …)` does, without a regex and a callback per
 * word (this runs for several address lines of every certificate).
 */
export function titleCase(s: string): string {
  const low = s.toLowerCase();
  let out = '';
  let from = 0;
  for (let i = 0; i < low.length; i++) {
    const c = low.charCodeAt(i);
    if (c < 97 || c > 122) continue;
    if (i > 0 && !startsWord(low.charCodeAt(i - 1))) continue;
    out += low.slice(from, i) + String.fromCharCode(c - 32);
    from = i + 1;
  }
  return from === 0 ? low : out + low.slice(from);
}

const WORD_START = /^[\s-]$/;

/** Whether a letter after this code unit starts a word: space or hyphen first, then the rest of `\s`. */
function startsWord(prev: number): boolean {
  if (prev === 32 || prev === 45) return true;
  if (prev < 128) return prev >= 9 && prev <= 13;
  return WORD_START.test(String.fromCharCode(prev));
}

/** Address lines as assessors type them: mixed case, flats split or joined, locality sometimes missing. */
export function epcAddress(r: Rng, p: Property, pr: Rng): [string, string, string] {
  const caseFn = r.chance(0.7) ? titleCase : (s: string) => s;
  const numberStreet = [p.buildingName, [p.buildingNumber, p.street].filter(Boolean).join(r.chance(0.1) ? ', ' : ' ')].filter(Boolean).join(', ');
  let a1: string;
  let a2: string;
  // Real patterns (ADDRESS_PATTERNS) for a flat in a named building: "Flat 84 Shire House,
  // 98 Napier Street" and "84 Shire House, Napier Street".
  const namedFlat = p.subBuilding?.startsWith('FLAT ') && p.buildingName && !/^\d/.test(p.buildingName);
  const u = pr.next();
  if (namedFlat && u < ADDRESS_PATTERNS.epcFlatBeforeBuilding + ADDRESS_PATTERNS.epcUnitBeforeBuilding) {
    const unit = u < ADDRESS_PATTERNS.epcFlatBeforeBuilding ? p.subBuilding! : p.subBuilding!.slice(5);
    a1 = `${unit} ${p.buildingName}`;
    a2 = [p.buildingNumber, p.street].filter(Boolean).join(pr.chance(0.5) ? ', ' : ' ');
  } else if (p.subBuilding) {
    if (r.chance(0.5)) {
      a1 = p.subBuilding;
      a2 = numberStreet;
    } else {
      a1 = `${p.subBuilding}, ${numberStreet}`;
      a2 = '';
    }
  } else {
    a1 = numberStreet;
    a2 = '';
  }
  const a3 = p.locality && r.chance(0.6) ? p.locality : '';
  if (a2 === '' && a3 !== '') return [caseFn(a1), caseFn(a3), ''];
  return [caseFn(a1), caseFn(a2), caseFn(a3)];
}

const COL = new Map<string, number>(EPC_ODC_HEADER.map((h, i) => [h, i]));

export interface Certificate {
  cells: string[];
  lmk: string;
  day: DayIdx;
}

/**
 * Certificates of one property (England and Wales only), several over time: each sale
 * after October 2008 usually needed one, lets too, new builds always; about 4% are
 * re-lodged within weeks with corrected measurements. Floor areas are measured with ~4%
 * error and are sometimes missing or zero; older certificates carry worse ratings.
 */
export function certificatesFor(seed: number, p: Property, sales: Sale[], lets: Let[], today: MonthIdx): Certificate[] {
  const r = rng(seed, 'epc', p.uprn);
  const out: Certificate[] = [];
  let seq = 0;
  const brn = r.digits(10);
  for (const t of triggers(r, p, sales, lets, today)) {
    const copies = r.chance(MESS.epcRelodged) ? 2 : 1;
    for (let c = 0; c < copies; c++) {
      const day = t.day + (c === 0 ? 0 : r.int(1, 20));
      if (monthOfDay(day) >= today) continue;
      out.push(certificate(r, p, t, day, seq++, brn, today, seed));
    }
  }
  return out;
}

function certificate(r: Rng, p: Property, t: Trigger, day: DayIdx, seq: number, brn: string, today: MonthIdx, seed: number): Certificate {
  const year = monthYear(monthOfDay(day));
  const yearsAgo = monthYear(today) - year;
  const band = Math.min(7, p.epcBand + (r.next() < yearsAgo / 14 ? 1 : 0));
  const [lo, hi] = BAND_SAP[band - 1]!;
  const eff = r.int(lo, hi);
  const potBand = Math.max(1, band - r.int(0, 2));
  const potEff = Math.max(eff, r.int(BAND_SAP[potBand - 1]![0], BAND_SAP[potBand - 1]![1]));
  const area = p.floorArea * Math.exp(r.gauss(0, MESS.epcAreaSd));
  const u = r.next();
  const areaCell = u < MESS.epcMissingArea ? '' : u < MESS.epcMissingArea + MESS.epcZeroArea ? '0' : r.chance(0.5) ? area.toFixed(0) : area.toFixed(2);
  const noUprn = r.chance(year < 2014 ? MESS.epcNoUprn * 1.8 : MESS.epcNoUprn * 0.5);
  const [a1, a2, a3] = epcAddress(r, p, rng(seed, 'epc-pattern', p.uprn, seq));
  const pc = p.oldPostcode !== undefined && p.postcodeChangedAt !== undefined && monthOfDay(day) < p.postcodeChangedAt ? p.oldPostcode : p.postcode;
  const kwh = Math.round(480 - eff * 4.2 + r.gauss(0, 15));
  const co2 = Math.max(0.3, (kwh * p.floorArea * 0.00021) * (1 + r.gauss(0, 0.05)));
  const gas = p.town.country !== 'S' && r.chance(0.88);
  const cells = new Array<string>(EPC_ODC_HEADER.length).fill('');
  const set = (k: (typeof EPC_ODC_HEADER)[number], v: string | number) => {
    cells[COL.get(k)!] = String(v);
  };
  const lmk = `${r.digits(12)}${String(p.uprn).padStart(12, '0')}${String(seq).padStart(3, '0')}${r.digits(6)}`;
  const isFlat = p.type === 'F';
  set('LMK_KEY', lmk);
  set('ADDRESS1', a1);
  set('ADDRESS2', a2);
  set('ADDRESS3', a3);
  set('POSTCODE', pc);
  set('BUILDING_REFERENCE_NUMBER', brn);
  set('CURRENT_ENERGY_RATING', BANDS[band - 1]!);
  set('POTENTIAL_ENERGY_RATING', BANDS[potBand - 1]!);
  set('CURRENT_ENERGY_EFFICIENCY', eff);
  set('POTENTIAL_ENERGY_EFFICIENCY', potEff);
  set('PROPERTY_TYPE', isFlat ? (r.chance(0.08) ? 'Maisonette' : 'Flat') : p.type === 'D' && r.chance(0.15) ? 'Bungalow' : 'House');
  set('BUILT_FORM', isFlat ? (p.builtForm === 'Purpose-Built' ? 'Mid-Terrace' : 'End-Terrace') : p.builtForm);
  set('INSPECTION_DATE', isoDay(day - r.int(0, 10)));
  set('LOCAL_AUTHORITY', p.town.laCode);
  set('CONSTITUENCY', `${p.town.country}1400${String(1000 + (p.district.code.length * 37) % 900).padStart(4, '0')}`);
  set('COUNTY', p.town.ppdCounty === p.town.ppdDistrict ? '' : titleCase(p.town.ppdCounty));
  set('LODGEMENT_DATE', isoDay(day));
  set('TRANSACTION_TYPE', t.type);
  set('ENVIRONMENT_IMPACT_CURRENT', Math.max(1, Math.min(100, eff - r.int(0, 8))));
  set('ENVIRONMENT_IMPACT_POTENTIAL', Math.max(1, Math.min(100, potEff - r.int(0, 6))));
  set('ENERGY_CONSUMPTION_CURRENT', kwh);
  set('ENERGY_CONSUMPTION_POTENTIAL', Math.round(kwh * 0.7));
  set('CO2_EMISSIONS_CURRENT', co2.toFixed(1));
  set('CO2_EMISS_CURR_PER_FLOOR_AREA', Math.round((co2 * 1000) / p.floorArea));
  set('CO2_EMISSIONS_POTENTIAL', (co2 * 0.7).toFixed(1));
  set('LIGHTING_COST_CURRENT', Math.round(40 + p.floorArea * 0.6));
  set('LIGHTING_COST_POTENTIAL', Math.round(35 + p.floorArea * 0.45));
  set('HEATING_COST_CURRENT', Math.round(kwh * p.floorArea * 0.045));
  set('HEATING_COST_POTENTIAL', Math.round(kwh * p.floorArea * 0.032));
  set('HOT_WATER_COST_CURRENT', r.int(70, 200));
  set('HOT_WATER_COST_POTENTIAL', r.int(60, 150));
  set('TOTAL_FLOOR_AREA', areaCell);
  set('ENERGY_TARIFF', r.pick(['Single', 'dual', 'Unknown']));
  set('MAINS_GAS_FLAG', gas ? 'Y' : 'N');
  set('FLOOR_LEVEL', isFlat ? (p.floorLevel === 0 ? 'Ground' : p.floorLevel === undefined ? 'NODATA!' : `${p.floorLevel}${['st', 'nd', 'rd'][p.floorLevel - 1] ?? 'th'}`) : '');
  set('FLAT_TOP_STOREY', isFlat ? (r.chance(0.25) ? 'Y' : 'N') : '');
  set('FLAT_STOREY_COUNT', isFlat ? r.int(2, 8) : '');
  set('MAIN_HEATING_CONTROLS', r.pick(['2104', '2106', '2107']));
  set('MULTI_GLAZE_PROPORTION', r.pick(['100', '100', '90', '80', '50']));
  set('GLAZED_TYPE', r.pick(['double glazing installed during or after 2002', 'double glazing installed before 2002', 'double glazing, unknown install date']));
  set('GLAZED_AREA', 'Normal');
  set('EXTENSION_COUNT', isFlat ? 0 : r.int(0, 2));
  set('NUMBER_HABITABLE_ROOMS', p.habitableRooms);
  set('NUMBER_HEATED_ROOMS', p.habitableRooms);
  set('LOW_ENERGY_LIGHTING', r.int(0, 100));
  set('NUMBER_OPEN_FIREPLACES', p.yearBuilt < 1930 && !isFlat ? r.int(0, 2) : 0);
  set('HOTWATER_DESCRIPTION', 'From main system');
  set('HOT_WATER_ENERGY_EFF', 'Good');
  set('HOT_WATER_ENV_EFF', 'Good');
  set('FLOOR_DESCRIPTION', isFlat && (p.floorLevel ?? 0) > 0 ? '(another dwelling below)' : 'Solid, no insulation (assumed)');
  set('FLOOR_ENERGY_EFF', 'N/A');
  set('FLOOR_ENV_EFF', 'N/A');
  set('WINDOWS_DESCRIPTION', 'Fully double glazed');
  set('WINDOWS_ENERGY_EFF', 'Average');
  set('WINDOWS_ENV_EFF', 'Average');
  set('WALLS_DESCRIPTION', p.yearBuilt < 1930 ? 'Solid brick, as built, no insulation (assumed)' : 'Cavity wall, filled cavity');
  set('WALLS_ENERGY_EFF', p.yearBuilt < 1930 ? 'Very Poor' : 'Good');
  set('WALLS_ENV_EFF', p.yearBuilt < 1930 ? 'Very Poor' : 'Good');
  set('SECONDHEAT_DESCRIPTION', 'None');
  set('SHEATING_ENERGY_EFF', 'N/A');
  set('SHEATING_ENV_EFF', 'N/A');
  set('ROOF_DESCRIPTION', isFlat && r.chance(0.7) ? '(another dwelling above)' : 'Pitched, 200 mm loft insulation');
  set('ROOF_ENERGY_EFF', 'Good');
  set('ROOF_ENV_EFF', 'Good');
  set('MAINHEAT_DESCRIPTION', gas ? 'Boiler and radiators, mains gas' : 'Electric storage heaters');
  set('MAINHEAT_ENERGY_EFF', gas ? 'Good' : 'Poor');
  set('MAINHEAT_ENV_EFF', gas ? 'Good' : 'Poor');
  set('MAINHEATCONT_DESCRIPTION', 'Programmer, room thermostat and TRVs');
  set('MAINHEATC_ENERGY_EFF', 'Good');
  set('MAINHEATC_ENV_EFF', 'Good');
  set('LIGHTING_DESCRIPTION', 'Low energy lighting in all fixed outlets');
  set('LIGHTING_ENERGY_EFF', 'Very Good');
  set('LIGHTING_ENV_EFF', 'Very Good');
  set('MAIN_FUEL', gas ? 'mains gas (not community)' : 'electricity (not community)');
  set('WIND_TURBINE_COUNT', 0);
  set('HEAT_LOSS_CORRIDOR', isFlat ? r.pick(['no corridor', 'unheated corridor', 'heated corridor']) : 'NO DATA!');
  set('UNHEATED_CORRIDOR_LENGTH', '');
  set('FLOOR_HEIGHT', (2.3 + r.next() * 0.6).toFixed(2));
  set('PHOTO_SUPPLY', r.chance(0.05) ? r.int(10, 40) : 0);
  set('SOLAR_WATER_HEATING_FLAG', 'N');
  set('MECHANICAL_VENTILATION', 'natural');
  set('ADDRESS', [a1, a2, a3].filter(Boolean).join(', '));
  set('LOCAL_AUTHORITY_LABEL', p.town.epcLaLabel);
  set('CONSTITUENCY_LABEL', `${titleCase(p.town.postTown)} ${['Central', 'North', 'South', 'East', 'West'][p.district.code.length % 5]}`);
  set('POSTTOWN', titleCase(p.town.postTown));
  set('CONSTRUCTION_AGE_BAND', r.chance(0.03) ? 'NO DATA!' : ageBand(p.yearBuilt));
  set('LODGEMENT_DATETIME', `${isoDay(day)} ${String(r.int(8, 19)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}`);
  set('TENURE', t.tenure);
  set('FIXED_LIGHTING_OUTLETS_COUNT', r.int(4, 25));
  set('LOW_ENERGY_FIXED_LIGHT_COUNT', '');
  set('UPRN', noUprn ? '' : p.uprn);
  set('UPRN_SOURCE', noUprn ? '' : r.chance(0.9) ? 'Address Matched' : 'Energy Assessor');
  return { cells, lmk, day };
}
