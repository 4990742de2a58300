import { GiasLinkRow, GiasSchoolRow, GIAS_LINKS_HEADER, GIAS_REQUIRED } from '../../../schemas/sources/gias.ts';
import { blankToUndef, readHeadedCsv } from '../csv.ts';
import { bngToWgs84 } from '../grid.ts';
import { windows1252ToUtf8 } from '../io.ts';
import type { RejectLog } from '../rejects.ts';
import { validateRow } from '../validate.ts';

/**
 * GIAS dates are `dd-mm-yyyy`: → ISO when a real day; blank → undefined; anything else is
 * passed through for the schema to reject by field.
 */
export function giasDate(raw: string | undefined): string | undefined {
  const t = blankToUndef(raw);
  if (t === undefined) return undefined;
  const m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(t);
  if (!m) return t;
  const iso = `${m[3]}-${m[2]}-${m[1]}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === iso ? iso : t;
}

/** A count cell: blank → undefined; otherwise a number (non-numbers fail the schema). */
const int = (v: string | undefined): number | undefined => {
  const t = blankToUndef(v);
  return t === undefined ? undefined : Number(t);
};

const GIAS_CSV = { transform: windows1252ToUtf8 };

/**
 * Streams the GIAS establishments extract, decoded from Windows-1252. Every establishment
 * is yielded, closed ones included (the ETL keeps open ones by default). A school with no
 * Easting/Northing (some independent and overseas establishments) has no position.
 */
export async function* readGiasSchools(path: string, rejects: RejectLog): AsyncGenerator<GiasSchoolRow> {
  for await (const r of readHeadedCsv(path, rejects, { ...GIAS_CSV, what: 'a GIAS establishments extract', required: GIAS_REQUIRED })) {
    const easting = int(r.get('Easting'));
    const northing = int(r.get('Northing'));
    // Easting 0 / Northing 0 is how some extracts write "unknown".
    const placed = easting !== undefined && northing !== undefined && easting > 0 && northing > 0;
    let pos: { lat: number; lng: number } | undefined;
    if (placed) {
      try { pos = bngToWgs84(easting, northing); } catch { pos = undefined; }
    }
    const row = validateRow(GiasSchoolRow, {
      urn: int(r.get('URN')),
      name: r.get('EstablishmentName'),
      type: r.get('TypeOfEstablishment (name)'),
      status: r.get('EstablishmentStatus (name)')?.trim(),
      phase: r.get('PhaseOfEducation (name)')?.trim(),
      low_age: int(r.get('StatutoryLowAge')),
      high_age: int(r.get('StatutoryHighAge')),
      pupils: int(r.get('NumberOfPupils')),
      capacity: int(r.get('SchoolCapacity')),
      ofsted_rating: blankToUndef(r.get('OfstedRating (name)')),
      ofsted_date: giasDate(r.get('OfstedLastInsp')),
      open_date: giasDate(r.get('OpenDate')),
      close_date: giasDate(r.get('CloseDate')),
      street: blankToUndef(r.get('Street')),
      town: blankToUndef(r.get('Town')),
      postcode: blankToUndef(r.get('Postcode')),
      la_name: blankToUndef(r.get('LA (name)')),
      district_code: blankToUndef(r.get('DistrictAdministrative (code)')),
      uprn: int(r.get('UPRN')),
      easting: placed ? easting : undefined,
      northing: placed ? northing : undefined,
      lat: pos?.lat,
      lng: pos?.lng,
    }, rejects, r.line);
    if (row) yield row;
  }
}

/** Streams the GIAS links extract (the one shared sample of the GIAS encoding at full size). */
export async function* readGiasLinks(path: string, rejects: RejectLog): AsyncGenerator<GiasLinkRow> {
  for await (const r of readHeadedCsv(path, rejects, { ...GIAS_CSV, what: 'a GIAS links extract', required: GIAS_LINKS_HEADER, checkWidth: true })) {
    const row = validateRow(GiasLinkRow, {
      urn: int(r.get('URN')),
      link_urn: int(r.get('LinkURN')),
      link_name: r.get('LinkName'),
      link_type: r.get('LinkType'),
      established: giasDate(r.get('LinkEstablishedDate')),
    }, rejects, r.line);
    if (row) yield row;
  }
}
