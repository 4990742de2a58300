import { ONSPD_COUNTRY, ONSPD_REQUIRED, OnspdRow } from '../../../schemas/sources/onspd.ts';
import { blankToUndef, headerIndex, readCsvRecords } from '../csv.ts';
import type { RejectLog } from '../rejects.ts';
import { validateRow } from '../validate.ts';

/** ONSPD writes this latitude (with longitude 0.000000) for postcodes that have no grid reference. */
const NO_LAT = 99.999999;
/** ONSPD pseudo codes such as `S99999999` mean "not applicable" (Scotland has no region, say). */
const PSEUDO_CODE = /^[A-Z]99999999$/;

const code = (v: string | undefined) => {
  const t = blankToUndef(v);
  return t === undefined || PSEUDO_CODE.test(t) ? undefined : t;
};

/**
 * Streams the ONS Postcode Directory CSV (header row, unquoted, LF; gzip transparent).
 * Columns are found by header name because releases add and drop columns. A postcode
 * without a location (blank grid reference, lat 99.999999) is a row with lat/lng undefined,
 * not a reject.
 */
export async function* readOnspd(path: string, rejects: RejectLog): AsyncGenerator<OnspdRow> {
  let col: Map<string, number> | undefined;
  for await (const { fields, line } of readCsvRecords(path, rejects)) {
    if (!col) {
      col = headerIndex(fields).index;
      const missing = ONSPD_REQUIRED.filter((c) => !col!.has(c));
      if (missing.length > 0) throw new Error(`${path}: not an ONSPD file (no ${missing.join(', ')} column)`);
      continue;
    }
    const get = (name: string) => fields[col!.get(name)!];
    const lat = blankToUndef(get('lat'));
    const noLocation = lat !== undefined && Number(lat) === NO_LAT;
    const doterm = blankToUndef(get('doterm'));
    const ctry = blankToUndef(get('ctry'));
    const imd = blankToUndef(get('imd'));
    const candidate = {
      pcd7: get('pcd7') ?? '',
      pcds: blankToUndef(get('pcds')),
      dointr: blankToUndef(get('dointr')),
      doterm,
      terminated: doterm !== undefined,
      oseast1m: get('oseast1m') ?? '',
      osnrth1m: get('osnrth1m') ?? '',
      osgrdind: get('osgrdind') ?? '',
      lat: noLocation ? '' : (lat ?? ''),
      lng: noLocation ? '' : (get('long') ?? ''),
      ctry,
      country: ctry === undefined ? undefined : ONSPD_COUNTRY[ctry as keyof typeof ONSPD_COUNTRY],
      oslaua: code(get('oslaua')),
      osward: code(get('osward')),
      rgn: code(get('rgn')),
      pcon: code(get('pcon')),
      lsoa21: code(get('lsoa21')),
      msoa21: code(get('msoa21')),
      // IMD rank starts at 1; ONSPD writes 0 where no rank applies (Channel Islands, no location).
      imd: imd === '0' ? '' : (imd ?? ''),
    };
    const row = validateRow(OnspdRow, candidate, rejects, line);
    if (row) yield row;
  }
}
