import { SCOTTISH_EPC_HEADER, type ScottishEpcColumn } from '../../schemas/sources/epc-scotland.ts';
import { BAND_SAP, BANDS, epcAddress, triggers, type Trigger } from './epc.ts';
import { MESS, SCOTTISH_EPC } from './params.ts';
import { rng, type Rng } from './prng.ts';
import type { Let } from './rents.ts';
import type { Sale } from './sales.ts';
import { dayOf, isoDay, monthOfDay, monthYear, type DayIdx, type MonthIdx } from './time.ts';
import type { Property } from './units.ts';

const START_DAY = dayOf(SCOTTISH_EPC.start);
const COL = new Map<string, number>(SCOTTISH_EPC_HEADER.map((h, i) => [h, i]));

/** Scottish RdSAP construction age bands (Scotland's own breaks, not England and Wales's). */
export function scottishAgeBand(year: number): string {
  const bands: [number, string][] = [
    [1918, 'before 1919'], [1929, '1919-1929'], [1949, '1930-1949'], [1964, '1950-1964'], [1975, '1965-1975'],
    [1983, '1976-1983'], [1991, '1984-1991'], [1998, '1992-1998'], [2002, '1999-2002'], [2007, '2003-2007'], [2011, '2008-2011'],
  ];
  for (const [y, label] of bands) if (year <= y) return label;
  return '2012 onwards';
}

export interface ScottishCertificate {
  cells: string[];
  /** REPORT_REFERENCE_NUMBER. */
  report: string;
  /** Whether OSG_REFERENCE_NUMBER (the UPRN) was written. */
  osgWritten: boolean;
  day: DayIdx;
}

/**
 * Certificates of one Scottish home in the Scottish EPC Register's extract layout: lodged on
 * the same events as in England and Wales (sales, lets, new builds; 4% re-lodged), from the
 * extracts' start in 2013; floor areas with the same measurement error and gaps. Its own
 * random stream, so England and Wales certificates are unchanged by it.
 */
export function scottishCertificatesFor(seed: number, p: Property, sales: Sale[], lets: Let[], today: MonthIdx): ScottishCertificate[] {
  const r = rng(seed, 'epc-scotland', p.uprn);
  const out: ScottishCertificate[] = [];
  let seq = 0;
  const brn = r.digits(10);
  for (const t of triggers(r, p, sales, lets, today, START_DAY)) {
    const copies = r.chance(MESS.epcRelodged) ? 2 : 1;
    for (let c = 0; c < copies; c++) {
      const day = t.day + (c === 0 ? 0 : r.int(1, 20));
      if (monthOfDay(day) >= today) continue;
      out.push(certificate(r, p, t, day, seq++, brn, today, seed));
    }
  }
  return out;
}

function certificate(r: Rng, p: Property, t: Trigger, day: DayIdx, seq: number, brn: string, today: MonthIdx, seed: number): ScottishCertificate {
  const yearsAgo = monthYear(today) - monthYear(monthOfDay(day));
  const band = Math.min(7, p.epcBand + (r.next() < yearsAgo / 14 ? 1 : 0));
  const [lo, hi] = BAND_SAP[band - 1]!;
  const eff = r.int(lo, hi);
  const potBand = Math.max(1, band - r.int(0, 2));
  const potEff = Math.max(eff, r.int(BAND_SAP[potBand - 1]![0], BAND_SAP[potBand - 1]![1]));
  const area = p.floorArea * Math.exp(r.gauss(0, MESS.epcAreaSd));
  const u = r.next();
  const areaCell = u < MESS.epcMissingArea ? '' : u < MESS.epcMissingArea + MESS.epcZeroArea ? '0' : area.toFixed(2);
  const osgWritten = !r.chance(SCOTTISH_EPC.noOsgReference);
  // Two address lines: the third line England and Wales certificates have is folded into the second.
  const [a1, a2, a3] = epcAddress(r, p, rng(seed, 'epc-scotland-pattern', p.uprn, seq));
  const kwh = Math.round(480 - eff * 4.2 + r.gauss(0, 15));
  const co2 = Math.max(0.3, kwh * p.floorArea * 0.00021 * (1 + r.gauss(0, 0.05)));
  const gas = r.chance(0.8);
  const isFlat = p.type === 'F';
  const report = [r.digits(4), ...Array.from({ length: 4 }, () => String(r.int(0, 9999)).padStart(4, '0'))].join('-');
  const cells = new Array<string>(SCOTTISH_EPC_HEADER.length).fill('');
  const set = (k: ScottishEpcColumn, v: string | number) => {
    cells[COL.get(k)!] = String(v);
  };
  set('BUILDING_REFERENCE_NUMBER', brn);
  set('OSG_REFERENCE_NUMBER', osgWritten ? p.uprn : '');
  set('REPORT_REFERENCE_NUMBER', report);
  set('ADDRESS1', a1);
  set('ADDRESS2', [a2, a3].filter(Boolean).join(', '));
  set('POST_TOWN', p.town.postTown);
  set('POSTCODE', p.postcode);
  set('INSPECTION_DATE', isoDay(day - r.int(0, 10)));
  set('TYPE_OF_ASSESSMENT', t.type === 'new dwelling' ? 'SAP' : 'RdSAP');
  set('LODGEMENT_DATE', isoDay(day));
  set('TRANSACTION_TYPE', t.type);
  set('ENERGY_CONSUMPTION_CURRENT', kwh);
  set('TOTAL_FLOOR_AREA', areaCell);
  set('CURRENT_ENERGY_EFFICIENCY', eff);
  set('CURRENT_ENERGY_RATING', BANDS[band - 1]!);
  set('POTENTIAL_ENERGY_EFFICIENCY', potEff);
  set('POTENTIAL_ENERGY_RATING', BANDS[potBand - 1]!);
  set('CURRENT_ENVIRONMENTAL_RATING', BANDS[Math.min(6, band)]!);
  set('POTENTIAL_ENVIRONMENTAL_RATING', BANDS[Math.min(6, potBand)]!);
  set('CO2_EMISSIONS_CURRENT', co2.toFixed(1));
  set('CO2_EMISS_CURR_PER_FLOOR_AREA', Math.round((co2 * 1000) / p.floorArea));
  set('PROPERTY_TYPE', isFlat ? (r.chance(0.08) ? 'Maisonette' : 'Flat') : p.type === 'D' && r.chance(0.15) ? 'Bungalow' : 'House');
  set('BUILT_FORM', isFlat ? (p.builtForm === 'Purpose-Built' ? 'Mid-Terrace' : 'End-Terrace') : p.builtForm);
  set('MAINS_GAS_FLAG', gas ? 'Y' : 'N');
  set('FLOOR_LEVEL', isFlat ? (p.floorLevel === undefined ? 'NODATA!' : String(p.floorLevel)) : '');
  set('NUMBER_HABITABLE_ROOMS', p.habitableRooms);
  set('NUMBER_HEATED_ROOMS', p.habitableRooms);
  set('CONSTRUCTION_AGE_BAND', r.chance(0.03) ? 'NO DATA!' : scottishAgeBand(p.yearBuilt));
  set('MAIN_FUEL', gas ? 'mains gas (not community)' : 'electricity (not community)');
  set('MAINHEAT_DESCRIPTION', gas ? 'Boiler and radiators, mains gas' : 'Electric storage heaters');
  set('WALL_DESCRIPTION', p.yearBuilt < 1919 ? 'Sandstone or limestone, as built, no insulation (assumed)' : 'Cavity wall, filled cavity');
  set('WALL_ENERGY_EFF', p.yearBuilt < 1919 ? 'Very Poor' : 'Good');
  set('HEAT_LOSS_CORRIDOOR', isFlat ? r.pick(['no corridor', 'unheated corridor', 'heated corridor']) : 'NO DATA!');
  set('TENURE', t.tenure);
  set('LOCAL_AUTHORITY_LABEL', p.town.epcLaLabel);
  set('DATA_ZONE', `S0100${SCOTTISH_EPC.dataZoneFirst + (p.district.code.length * 131 + Number(p.postcode.replace(/\D/g, ''))) % SCOTTISH_EPC.dataZones}`);
  return { cells, report, osgWritten, day };
}
