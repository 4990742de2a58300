import { basename, dirname } from 'node:path';
import { PoliceCrimeRow } from '../../../schemas/sources/police-crime.ts';
import { blankToUndef, readHeadedCsv } from '../csv.ts';
import type { RejectLog } from '../rejects.ts';
import { validateRow } from '../validate.ts';

/**
 * What a street file's path says about it: the month and force from its name
 * (`2023-01-city-of-london-street.csv`) and the release from the nearest folder named for
 * one: police.uk archives are named by release month (`2024-10/` or, in the shared samples,
 * `…_release_2024-10/`). A file with no release folder is its month's first release.
 */
export function streetFileIdentity(path: string): { month: string; force: string; release: string } | undefined {
  const m = /^(\d{4}-\d{2})-(.+)-street\.csv(\.gz)?$/i.exec(basename(path));
  if (!m) return undefined;
  let release = m[1]!;
  let d = dirname(path);
  for (let up = 0; up < 3 && d !== dirname(d); up++, d = dirname(d)) {
    // police.uk archives hold `<month>/<month>-<force>-street.csv`: the month folder is not a release.
    const r = /^(?:.*_release_)?(\d{4}-\d{2})$/.exec(basename(d));
    if (r && basename(d) !== m[1]) { release = r[1]!; break; }
  }
  return { month: m[1]!, force: m[2]!.toLowerCase(), release };
}

const coord = (v: string | undefined): number | undefined => {
  const t = blankToUndef(v);
  return t === undefined ? undefined : Number(t);
};

/**
 * Streams a police.uk `*-street.csv`. Rows keep what police.uk publishes; the ETL decides
 * which release of a month counts. A row whose Month is not the file's month is rejected
 * (`month_not_file_month`): the release rule replaces by file, so a stray month would be
 * replaced or kept by the wrong file.
 */
export async function* readPoliceCrime(path: string, rejects: RejectLog): AsyncGenerator<PoliceCrimeRow> {
  const id = streetFileIdentity(path);
  if (!id) throw new Error(`${path}: not a police.uk street file (expected YYYY-MM-<force>-street.csv)`);
  for await (const r of readHeadedCsv(path, rejects, {
    what: 'a police.uk street-level crime file',
    required: ['Crime ID', 'Month', 'Falls within', 'Longitude', 'Latitude', 'Location', 'LSOA code', 'Crime type'],
    checkWidth: true,
  })) {
    const monthCell = r.get('Month')?.trim();
    if (monthCell !== id.month) {
      rejects.add('month_not_file_month', r.line, `Month ${monthCell} in a ${id.month} file`);
      continue;
    }
    const location = blankToUndef(r.get('Location')?.replace(/^On or near\s*/i, ''));
    const row = validateRow(PoliceCrimeRow, {
      crime_id: blankToUndef(r.get('Crime ID')),
      month: monthCell,
      release: id.release,
      force: id.force,
      reported_by: r.get('Reported by'),
      falls_within: r.get('Falls within'),
      lat: coord(r.get('Latitude')),
      lng: coord(r.get('Longitude')),
      location,
      lsoa_code: blankToUndef(r.get('LSOA code')),
      lsoa_name: blankToUndef(r.get('LSOA name')),
      crime_type: r.get('Crime type')?.trim(),
      last_outcome: blankToUndef(r.get('Last outcome category')),
    }, rejects, r.line);
    if (row) yield row;
  }
}
