import { GIAS_HEADER } from '../../schemas/sources/gias.ts';
import { csvAll, OutFile } from './out.ts';
import type { Planter } from './planted.ts';
import { rng } from './prng.ts';
import { isoDay, type DayIdx } from './time.ts';
import type { Unit } from './units.ts';

/**
 * The GIAS establishments extract for the synthetic region: English towns only (GIAS is
 * England's register), schools spread by population (about one primary per 1,500 homes,
 * one secondary per 7,000, as England has), placed at a postcode unit, with the extract's
 * quoting, dd-mm-yyyy dates, Windows-1252 and CRLF. Some are closed or not yet inspected.
 */
export const GIAS_FILE = 'gias/edubasealldata.csv';

interface Kind { phase: string; type: string; low: number; high: number; capacity: () => number; perHomes: number; suffix: string }

const KINDS = (r: ReturnType<typeof rng>): Kind[] => [
  { phase: 'Primary', type: 'Community school', low: 4, high: 11, capacity: () => r.pick([210, 420, 630]), perHomes: 1_500, suffix: 'Primary School' },
  { phase: 'Secondary', type: 'Academy converter', low: 11, high: 18, capacity: () => r.int(6, 12) * 150, perHomes: 7_000, suffix: 'Academy' },
  { phase: 'Nursery', type: 'LA nursery school', low: 2, high: 5, capacity: () => r.int(3, 8) * 10, perHomes: 12_000, suffix: 'Nursery School' },
  { phase: 'Not applicable', type: 'Other independent school', low: 3, high: 18, capacity: () => r.int(2, 9) * 100, perHomes: 15_000, suffix: 'School' },
];

/** Names with the characters that a UTF-8 reading of a Windows-1252 file mangles. */
const SPECIAL_NAMES = ['St Thomas à Becket', 'École Française Jacques Prévert', 'North Star 82°', 'Notre Dame'];

const RATINGS: readonly (readonly [string, number])[] = [
  ['Outstanding', 0.16], ['Good', 0.67], ['Requires improvement', 0.1], ['Inadequate', 0.03], ['', 0.04],
];

export class SchoolsWriter {
  private urn = 900_000;
  private readonly file: OutFile;

  /** `live` false: another lane writes the file (generate.ts), so this one creates nothing. */
  constructor(out: string, private readonly seed: number, private readonly today: DayIdx, live = true) {
    this.file = new OutFile(`${out}/${GIAS_FILE}`, GIAS_FILE, 'none', 'latin1', live);
    this.file.raw(GIAS_HEADER.map((h) => `"${h}"`).join(',') + '\r\n');
  }

  /** Draws the schools whose site is in this unit. */
  add(u: Unit): void {
    const town = u.district.town;
    if (town.country !== 'E' || u.properties.length === 0) return;
    const r = rng(this.seed, 'schools', u.postcode);
    for (const k of KINDS(r)) {
      if (!r.chance(u.properties.length / k.perHomes)) continue;
      const p = r.pick(u.properties);
      const urn = ++this.urn;
      const stem = p.streetStem.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
      const name = r.chance(0.06) ? `${r.pick(SPECIAL_NAMES)} ${k.suffix}` : `${stem} ${k.suffix}`;
      const statusDraw = r.next();
      const status = statusDraw < 0.06 ? 'Closed' : statusDraw < 0.08 ? 'Open, but proposed to close' : 'Open';
      const capacity = k.capacity();
      const pupils = status === 'Closed' ? undefined : Math.round(capacity * r.uniform(0.7, 1.05));
      const rating = k.phase === 'Not applicable' ? '' : r.weighted(RATINGS);
      const inspected = rating === '' ? '' : ddmmyyyy(this.today - r.int(60, 5 * 365));
      const opened = r.chance(0.3) ? ddmmyyyy(this.today - r.int(365, 30 * 365)) : '';
      const closed = status === 'Closed' ? ddmmyyyy(this.today - r.int(30, 3 * 365)) : '';
      const v: Record<string, string | number> = {
        URN: urn, 'LA (code)': '800', 'LA (name)': town.laName, EstablishmentNumber: String(2000 + (urn % 7000)), EstablishmentName: name,
        'TypeOfEstablishment (name)': k.type, 'EstablishmentStatus (name)': status, 'EstablishmentStatus (code)': status === 'Closed' ? '2' : '1',
        OpenDate: opened, CloseDate: closed, 'PhaseOfEducation (name)': k.phase, StatutoryLowAge: k.low, StatutoryHighAge: k.high,
        SchoolCapacity: capacity, NumberOfPupils: pupils ?? '', CensusDate: ddmmyyyy(this.today - 200), OfstedLastInsp: inspected,
        'OfstedRating (name)': rating, Street: p.street.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase()), Town: town.postTown,
        Postcode: u.postcode, Easting: u.e, Northing: u.n, 'DistrictAdministrative (code)': town.laCode, 'GOR (name)': 'South West',
        'Gender (name)': 'Mixed', 'Country (name)': '', UPRN: r.chance(0.8) ? p.uprn : '',
      };
      // As GIAS writes them: URN, ages, capacity, Easting/Northing unquoted, the rest quoted.
      const bare = new Set(['URN', 'StatutoryLowAge', 'StatutoryHighAge', 'SchoolCapacity', 'Easting', 'Northing', 'UKPRN']);
      this.file.row(GIAS_HEADER.map((h) => (bare.has(h) ? String(v[h] ?? '') : csvAll(v[h]))).join(',') + '\r\n');
    }
  }

  /** Plants the rows the reader must reject, then closes the file (the last record has no CRLF after it, as GIAS ships). */
  async close(planter: Planter): Promise<OutFile> {
    const row = (over: Record<string, string>) =>
      GIAS_HEADER.map((h) => csvAll(over[h] ?? ({ EstablishmentName: 'Planted School', 'TypeOfEstablishment (name)': 'Community school',
        'EstablishmentStatus (name)': 'Open', 'PhaseOfEducation (name)': 'Primary', Postcode: 'BS1 1AA' } as Record<string, string>)[h])).join(',') + '\r\n';
    planter.plant(this.file, 'invalid:urn', row({ URN: 'X1' }));
    planter.plant(this.file, 'invalid:phase', row({ URN: '999001', 'PhaseOfEducation (name)': 'Sixth' }));
    planter.plant(this.file, 'invalid:ofsted_date', row({ URN: '999002', OfstedLastInsp: '31-02-2020' }).replace(/\r\n$/, ''));
    await this.file.close();
    return this.file;
  }
}

function ddmmyyyy(d: DayIdx): string {
  const [y, m, dd] = isoDay(d).split('-');
  return `${dd}-${m}-${y}`;
}
