import { POLICE_STREET_HEADER } from '../../schemas/sources/police-crime.ts';
import { bngToWgs84 } from '../sources/grid.ts';
import { lsoaCode } from './formats.ts';
import { csvRow, OutFile } from './out.ts';
import type { Planter } from './planted.ts';
import { hashKey, rng } from './prng.ts';
import { ymStr, type MonthIdx } from './time.ts';
import type { Unit } from './units.ts';

/**
 * police.uk street-level crime for the synthetic region, in the real file layout
 * (`crime/<release>/<month>/<month>-<force>-street.csv`, one folder per police.uk archive).
 * Crimes are drawn per postcode unit in proportion to its homes, more in dense urban
 * districts; each lands on one of the unit's anonymous snap points (`On or near <street>`).
 * Thirteen months are written so the ETL's 12-month window has one to drop, and one month is
 * republished in a later archive with settled outcomes and a few crimes withdrawn, as
 * police.uk does.
 */

/** Police force of each town (police.uk has no Scottish forces: Edinburgh has no file). */
export const FORCES: Record<string, { slug: string; name: string } | undefined> = {
  bristol: { slug: 'avon-and-somerset', name: 'Avon and Somerset Constabulary' },
  stroud: { slug: 'gloucestershire', name: 'Gloucestershire Constabulary' },
  cardiff: { slug: 'south-wales', name: 'South Wales Police' },
  edinburgh: undefined,
  'city-of-london': { slug: 'city-of-london', name: 'City of London Police' },
  westminster: { slug: 'metropolitan', name: 'Metropolitan Police Service' },
};

/** Category shares of the real Avon and Somerset month (January 2023, 12,566 rows). */
export const CRIME_SHARES: readonly (readonly [string, number])[] = [
  ['Violence and sexual offences', 0.377], ['Anti-social behaviour', 0.12], ['Public order', 0.099],
  ['Criminal damage and arson', 0.083], ['Shoplifting', 0.079], ['Other theft', 0.07], ['Vehicle crime', 0.057],
  ['Burglary', 0.048], ['Other crime', 0.019], ['Drugs', 0.017], ['Bicycle theft', 0.012], ['Robbery', 0.01],
  ['Theft from the person', 0.006], ['Possession of weapons', 0.005],
];

/** Crimes a month per home at urban density 0 (about 0.1 a year, England's rate per household halved) and the uplift at 1. */
const BASE_RATE = 0.008;
const URBAN_UPLIFT = 3;
/** police.uk publishes a month about six weeks after it ends. */
const PUBLISH_LAG = 2;
export const CRIME_MONTHS = 13;
/** Months before the latest whose first release is superseded by a later one. */
const REPUBLISHED_AGE = 3;

/**
 * What the crime files need of a unit, held as one string per unit until the end of the walk
 * (a million units at 30M addresses: an object and its strings per unit took several times
 * the bytes): its fields joined by FIELD_SEP, its snap points by POINTS_SEP and POINT_SEP.
 */
const FIELD_SEP = '\u0003';
const POINTS_SEP = '\u0002';
const POINT_SEP = '\u0001';

interface CrimeUnit {
  postcode: string;
  homes: number;
  urban: number;
  lsoa: string;
  lsoaName: string;
  /** Snap points: [lat, lng, street]. */
  points: string[][];
}

function packUnit(u: CrimeUnit): string {
  return [u.postcode, u.homes, u.urban, u.lsoa, u.lsoaName, u.points.map((pt) => pt.join(POINT_SEP)).join(POINTS_SEP)].join(FIELD_SEP);
}

function unpackUnit(s: string): CrimeUnit {
  const [postcode, homes, urban, lsoa, lsoaName, points] = s.split(FIELD_SEP) as [string, string, string, string, string, string];
  return { postcode, homes: Number(homes), urban: Number(urban), lsoa, lsoaName, points: points.split(POINTS_SEP).map((pt) => pt.split(POINT_SEP)) };
}

export interface CrimeFileReport { rel: string; file: OutFile }

export class CrimeWriter {
  /** Each force's units (packed), forces in the order their first unit came. */
  private readonly byForce = new Map<string, { force: { slug: string; name: string }; units: string[] }>();

  constructor(private readonly seed: number) {}

  /** Records a unit's homes and snap points (kept small: a unit is a few dozen bytes). */
  add(u: Unit): void {
    const force = FORCES[u.district.town.key];
    if (!force || u.properties.length === 0) return;
    const r = rng(this.seed, 'crime-points', u.postcode);
    const streets = [...new Set(u.properties.map((p) => p.street))];
    const points: [string, string, string][] = [];
    const nPoints = Math.min(3, 1 + Math.floor(u.properties.length / 12));
    for (let i = 0; i < nPoints; i++) {
      const ll = bngToWgs84(u.e + r.int(-60, 60), u.n + r.int(-60, 60));
      points.push([ll.lat.toFixed(6), ll.lng.toFixed(6), titleCase(r.pick(streets))]);
    }
    const lsoa = lsoaCode(u, u.postcode);
    const num = String(1 + (hashKey(['lsoa-name', lsoa]) % 60)).padStart(3, '0');
    let held = this.byForce.get(force.slug);
    if (!held) this.byForce.set(force.slug, (held = { force, units: [] }));
    held.units.push(packUnit({
      postcode: u.postcode, homes: u.properties.length, urban: u.district.spec.urban, lsoa,
      lsoaName: `${u.district.town.laName.replace(/^City of /, '')} ${num}${'ABCDE'[hashKey([lsoa]) % 5]}`, points,
    }));
  }

  /**
   * Writes every file and returns them closed, with truth rows `force,month,release,rows,current`
   * (`current` 1 for the release the ETL must keep). `latest` is the newest month published.
   */
  async write(out: string, latest: MonthIdx, planter: Planter, truth: OutFile): Promise<OutFile[]> {
    const files: OutFile[] = [];
    for (const { force, units } of this.byForce.values()) {
      for (let month = latest - CRIME_MONTHS + 1; month <= latest; month++) {
        const releases = [month + PUBLISH_LAG - 1];
        if (month === latest - REPUBLISHED_AGE) releases.push(latest + PUBLISH_LAG - 1);
        for (const release of releases) {
          const rel = `crime/${ymStr(release)}/${ymStr(month)}/${ymStr(month)}-${force.slug}-street.csv`;
          const f = new OutFile(`${out}/${rel}`, rel);
          f.raw(POLICE_STREET_HEADER.join(',') + '\r\n');
          const settled = release > month + PUBLISH_LAG - 1;
          for (const u of units) for (const row of this.crimes(u, force, month, settled)) f.row(row);
          const current = release === releases.at(-1);
          // The first file of the first force carries the planted rows.
          if (files.length === 0) {
            const bad = (cells: Record<number, string>) => POLICE_STREET_HEADER.map((_, i) => cells[i] ?? '').join(',') + '\r\n';
            const base = { 1: ymStr(month), 2: force.name, 3: force.name, 4: '-2.5879', 5: '51.4545', 6: 'On or near Planted Road', 9: 'Burglary' };
            planter.plant(f, 'invalid:crime_type', bad({ ...base, 9: 'Jaywalking' }));
            planter.plant(f, 'month_not_file_month', bad({ ...base, 1: ymStr(month - 1) }));
          }
          truth.row(csvRow([force.slug, ymStr(month), ymStr(release), f.rows - (files.length === 0 ? 2 : 0), current ? 1 : 0]));
          files.push(f);
          await f.close();
        }
      }
    }
    return files;
  }

  /** One unit's crimes in a month (the same crimes in every release; a later release settles outcomes and withdraws a few). */
  private *crimes(packed: string, force: { name: string }, month: MonthIdx, settled: boolean): Generator<string> {
    const postcode = packed.slice(0, packed.indexOf(FIELD_SEP));
    const r = rng(this.seed, 'crime', postcode, month);
    const u = unpackUnit(packed);
    const n = r.poisson(u.homes * BASE_RATE * (1 + URBAN_UPLIFT * u.urban));
    for (let i = 0; i < n; i++) {
      const type = r.weighted(CRIME_SHARES);
      const id = r.hex(64);
      const [lat, lng, street] = r.pick(u.points) as [string, string, string];
      const unnamed = r.chance(0.15);
      const unplaced = r.chance(0.05);
      const withdrawn = r.chance(0.02);
      const outcomeDraw = r.next();
      if (settled && withdrawn) continue;
      const asb = type === 'Anti-social behaviour';
      const outcome = asb ? '' : outcomeFor(outcomeDraw, settled);
      yield csvRow([
        asb ? '' : id, ymStr(month), force.name, force.name, unplaced ? '' : lng, unplaced ? '' : lat,
        unplaced ? 'No Location' : `On or near ${unnamed ? '' : street}`, unplaced ? '' : u.lsoa, unplaced ? '' : u.lsoaName,
        type, outcome, '',
      ]).replace(/\n$/, '\r\n');
    }
  }
}

function outcomeFor(u: number, settled: boolean): string {
  if (!settled && u < 0.65) return 'Under investigation';
  if (u < 0.55) return 'Investigation complete; no suspect identified';
  if (u < 0.8) return 'Unable to prosecute suspect';
  if (u < 0.9) return 'Status update unavailable';
  if (u < 0.95) return 'Awaiting court outcome';
  return 'Local resolution';
}

function titleCase(s: string): string {
  return s.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
}
