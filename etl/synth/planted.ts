import { AIRBNB_LISTINGS_HEADER } from '../../schemas/sources/airbnb.ts';
import { EPC_ODC_HEADER } from '../../schemas/sources/epc.ts';
import { SCOTTISH_EPC_HEADER } from '../../schemas/sources/epc-scotland.ts';
import { onspdRow } from './formats.ts';
import { csvRow, type OutFile } from './out.ts';
import { rng } from './prng.ts';
import { planRegion } from './region.ts';
import { guid } from './sales.ts';
import { monthOf } from './time.ts';
import type { Unit } from './units.ts';

/**
 * Deliberately malformed rows, one kind per reason the readers report. Every planted row
 * is counted here by file and reason and written to truth/expected-rejects.json, so the
 * round-trip test can demand exactly these rejects and nothing else.
 */
export class Planter {
  readonly expected: Record<string, Record<string, number>> = {};

  plant(file: OutFile, reason: string, text: string): void {
    file.row(text);
    const byReason = (this.expected[file.rel] ??= {});
    byReason[reason] = (byReason[reason] ?? 0) + 1;
  }

  /** Sorted by file then reason, so the JSON is byte-stable. */
  toJSON(): Record<string, Record<string, number>> {
    const out: Record<string, Record<string, number>> = {};
    for (const f of Object.keys(this.expected).sort()) {
      const r = this.expected[f]!;
      out[f] = Object.fromEntries(Object.keys(r).sort().map((k) => [k, r[k]!]));
    }
    return out;
  }
}

/** The deliberately bad rows of the streamed files (see Planter). */
export function plantStreamed(planter: Planter, f: Record<string, OutFile>, seed: number): void {
  const r = rng(seed, 'planted');
  const q = (cells: string[]) => cells.map((c) => `"${c}"`).join(',') + '\n';
  const ppd = (id: string, price: string, date: string, type = 'T') =>
    q([`{${id}}`, price, date, 'BS1 1AA', type, 'N', 'F', '1', '', 'PLANTED ROAD', '', 'BRISTOL', 'CITY OF BRISTOL', 'CITY OF BRISTOL', 'A', 'A']);
  planter.plant(f.ppd!, 'invalid:price', ppd(guid(r), '0', '2015-06-01 00:00'));
  planter.plant(f.ppd!, 'invalid:date', ppd(guid(r), '250000', '2015-02-30 00:00'));
  planter.plant(f.ppd!, 'wrong_column_count', ppd(guid(r), '250000', '2015-06-01 00:00').replace(/,"A"\n$/, '\n'));
  planter.plant(f.ppdUpdate!, 'invalid:property_type', ppd(guid(r), '250000', '2025-08-01 00:00', 'X'));

  const ab = (uprn: string, pc: string) => csvRow([uprn, '', '', '', '', 'RD04', '358900.00', '172900.00', '51.4545000', '-2.5879000', '1', '2024-01-01', `1 PLANTED ROAD, BRISTOL, ${pc}`, '', '', '', '', '1', 'PLANTED ROAD', '', 'BRISTOL', 'BRISTOL', '', pc, '1A', 'E06000023', 'I']);
  planter.plant(f.addressbase!, 'invalid:uprn', ab('UPRN-X', 'BS1 1AA'));
  planter.plant(f.addressbase!, 'invalid:postcode', ab('999999999901', 'NOT A POSTCODE'));
  planter.plant(f.addressbase!, 'wrong_column_count', ab('999999999902', 'BS1 1AA').replace(/,I\n$/, '\n'));

  planter.plant(f.uprn!, 'invalid:uprn', 'abc,358900.00,172900.00,51.4545000,-2.5879000\n');
  planter.plant(f.uprn!, 'invalid:lat', '999999999903,358900.00,172900.00,91.5000000,-2.5879000\n');

  const epc = (set: Record<string, string>, drop = false) => {
    const cells = EPC_ODC_HEADER.map((h) => set[h] ?? '');
    return csvRow(drop ? cells.slice(0, -1) : cells);
  };
  const good = { LMK_KEY: `9${r.digits(30)}`, POSTCODE: 'BS1 1AA', LODGEMENT_DATE: '2015-06-01', CURRENT_ENERGY_RATING: 'D', ADDRESS1: '1 Planted Road' };
  planter.plant(f.epc!, 'invalid:lodgement_date', epc({ ...good, LODGEMENT_DATE: '2015-13-45' }));
  planter.plant(f.epc!, 'invalid:current_energy_rating', epc({ ...good, LMK_KEY: `9${r.digits(30)}`, CURRENT_ENERGY_RATING: 'H' }));
  planter.plant(f.epc!, 'wrong_column_count', epc({ ...good, LMK_KEY: `9${r.digits(30)}` }, true));

  // Scotland's extract, from its own stream so the rows planted after it stay as they were.
  const rs = rng(seed, 'planted-scotland');
  const scot = (set: Record<string, string>, drop = false) => {
    const cells = SCOTTISH_EPC_HEADER.map((h) => set[h] ?? '');
    return csvRow(drop ? cells.slice(0, -1) : cells);
  };
  const sref = () => `9${rs.digits(3)}-${rs.digits(4)}-${rs.digits(4)}-${rs.digits(4)}-${rs.digits(4)}`;
  const sgood = { BUILDING_REFERENCE_NUMBER: rs.digits(10), POSTCODE: 'EH1 1AA', LODGEMENT_DATE: '2016-06-01', CURRENT_ENERGY_RATING: 'D', ADDRESS1: '1 Planted Street' };
  planter.plant(f.epcScotland!, 'invalid:lodgement_date', scot({ ...sgood, REPORT_REFERENCE_NUMBER: sref(), LODGEMENT_DATE: '31/02/2016' }));
  planter.plant(f.epcScotland!, 'invalid:current_energy_rating', scot({ ...sgood, REPORT_REFERENCE_NUMBER: sref(), CURRENT_ENERGY_RATING: 'Z' }));
  planter.plant(f.epcScotland!, 'wrong_column_count', scot({ ...sgood, REPORT_REFERENCE_NUMBER: sref() }, true));

  const pc = (pcds: string, dointr: string) => {
    const row = onspdRow(PLANT_UNIT(), 'BS1 1AA', '51.454500', '-2.587900', monthOf('1980-01'), undefined).split(',');
    row[2] = pcds;
    row[3] = dointr;
    return row.join(',');
  };
  planter.plant(f.onspd!, 'invalid:dointr', pc('BS1 1AA', '198013'));
  planter.plant(f.onspd!, 'invalid:pcds', pc('NOTAPC', '198001'));

  const listing = (id: string, roomType: string, drop = false) => {
    const cells = AIRBNB_LISTINGS_HEADER.map((h): string =>
      h === 'id' ? id : h === 'host_id' ? '12345' : h === 'latitude' ? '51.45' : h === 'longitude' ? '-2.59' : h === 'room_type' ? roomType : '');
    return csvRow(drop ? cells.slice(0, -1) : cells);
  };
  planter.plant(f.listings!, 'invalid:id', listing('12ab', 'Private room'));
  planter.plant(f.listings!, 'invalid:room_type', listing('99999999999', 'Castle'));
  planter.plant(f.listings!, 'column_count', listing('99999999998', 'Private room', true));
  planter.plant(f.calendar!, 'invalid:available', '99999999999,2025-10-01,x,,,1,30\n');
  planter.plant(f.calendar!, 'invalid:date', '99999999999,2025-13-01,t,,,1,30\n');
  planter.plant(f.reviews!, 'invalid:listing_id', csvRow(['abc', '123', '2024-01-01', '456', 'Sam', 'Planted review']));
  planter.plant(f.reviews!, 'invalid:date', csvRow(['99999999999', '124', '2024/01/01', '456', 'Sam', 'Planted review']));

  const ev = (id: string, date: string) => csvRow([id, date, '1 Planted Road, Bristol', 'BS1 1AA', '', 'house', '3', 'whole', '1200', '', 'portal-c']);
  planter.plant(f.evidence!, 'invalid:let_date', ev('EVPLANTED1', '2024-02-30'));
  planter.plant(f.evidence!, 'invalid:bedrooms', csvRow(['EVPLANTED2', '2024-02-10', '1 Planted Road, Bristol', 'BS1 1AA', '', 'house', '1', 'room', '600', '', 'portal-c']));
}

let plantUnit: Unit | undefined;
/** A stand-in unit for rendering planted ONSPD rows (Bristol's first district). */
function PLANT_UNIT(): Unit {
  if (!plantUnit) {
    const d = planRegion(100)[0]!;
    plantUnit = { district: d, postcode: 'BS1 1AA', sector: 0, e: 358900, n: 172900, dointr: 0, predecessor: undefined, properties: [], phantoms: [], parentUprns: [] };
  }
  return plantUnit;
}
