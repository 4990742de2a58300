import { HMO_REGISTER_HEADER, HMO_STOREYS_COLUMN } from '../../schemas/sources/hmo-register.ts';
import { singleLine } from './formats.ts';
import { csvMin, type OutFile } from './out.ts';
import type { Planter } from './planted.ts';
import { rng } from './prng.ts';
import { isoDay, type DayIdx } from './time.ts';
import type { Property } from './units.ts';

/** The header the synthetic register is written with: Oxford's columns and a storeys column. */
export const SYNTH_HMO_HEADER = [...HMO_REGISTER_HEADER, HMO_STOREYS_COLUMN] as const;
export const HMO_TRUTH_HEADER = ['case_number', 'true_uprn', 'kind', 'licence_start', 'licence_end'];

/** Licences run five years (the Housing Act 2004's maximum); the register goes back six, so about one in six has expired. */
const LICENCE_DAYS = 5 * 365;
const HISTORY_DAYS = 6 * 365;
/** One licence in this many is followed by a licence at an address the address base lacks (a number the street does not have). */
const UNMATCHABLE_EVERY = 12;

/** `dd/mm/yyyy` as Oxford writes it. */
const ukDay = (d: DayIdx) => isoDay(d).split('-').reverse().join('/');

/** "18 ABBEY ROAD, OXFORD, OX2 0AE" → "18 Abbey Road Oxford OX2 0AE": Oxford's one free-text line, no commas. */
function registerAddress(p: Property, number?: string): string {
  const parts = singleLine(p).split(', ');
  const postcode = parts.pop()!;
  let text = parts.join(' ').toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
  if (number !== undefined) text = text.replace(/^\S+/, number);
  return `${text} ${postcode}`;
}

/**
 * The region's council HMO licence register, in Oxford City Council's layout (CR-only line
 * endings, `dd/mm/yyyy` dates, free-text address ending in the postcode) with a `Number of
 * Storeys` column: a licence for every HMO, some of them expired, and a few licences at
 * addresses the address base does not have, which the build cannot match to a UPRN.
 */
export class HmoRegisterWriter {
  private seq = 0;
  private licences = 0;

  constructor(private readonly f: OutFile, private readonly truth: OutFile, private readonly seed: number, private readonly today: DayIdx) {
    f.raw(SYNTH_HMO_HEADER.join(',') + '\r');
  }

  add(p: Property, rooms: number): void {
    const r = rng(this.seed, 'hmo-licence', p.uprn);
    this.write(r, registerAddress(p), rooms, String(p.uprn), 'licence');
    if (++this.licences % UNMATCHABLE_EVERY === 0 && p.buildingNumber) {
      // The same street and postcode, a house number it does not have.
      this.write(r, registerAddress(p, String(900 + r.int(0, 99))), rooms, '', 'unmatchable');
    }
  }

  private write(r: ReturnType<typeof rng>, address: string, rooms: number, uprn: string, kind: string): void {
    const start = this.today - 1 - r.int(0, HISTORY_DAYS);
    const end = start + LICENCE_DAYS - 1;
    const ref = `${isoDay(start).slice(2, 4)}/${String(++this.seq).padStart(5, '0')}/HMOADL`;
    const occupants = rooms + r.int(0, 1);
    this.f.row([
      ref, address, occupants, r.chance(0.5) ? rooms : undefined, ukDay(start), ukDay(end),
      r.chance(0.8) ? (rooms >= 5 ? 3 : 2) : undefined,
    ].map(csvMin).join(',') + '\r');
    this.truth.row([ref, uprn, kind, isoDay(start), isoDay(end)].join(',') + '\n');
  }

  /** One row whose start date is no date (the reader's `invalid:licence_start`). */
  plant(planter: Planter): void {
    planter.plant(this.f, 'invalid:licence_start', `99/99999/HMOADL,1 Planted Road Bristol BS1 1AA,5,5,31/02/2024,30/01/2029,2\r`);
  }
}
