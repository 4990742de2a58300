import { CODEPOINT_COLUMNS, CodePointRow } from '../../../schemas/sources/codepoint.ts';
import { formatPostcode } from '../../../schemas/sources/fields.ts';
import { blankToUndef, readCsvRecords } from '../csv.ts';
import { bngToWgs84 } from '../grid.ts';
import type { RejectLog } from '../rejects.ts';
import { validateRow } from '../validate.ts';

/** Quality indicator OS uses for a postcode it has no coordinates for (written as 0, 0). */
const NO_COORDINATES = 90;

/** Rounds degrees to 6 decimal places (about 0.1 m), the precision ONSPD publishes. */
const deg6 = (d: number) => Math.round(d * 1e6) / 1e6;

/**
 * Streams one OS Code-Point Open area file (`bs.csv`): headerless, text quoted, CRLF,
 * columns as CODEPOINT_COLUMNS. Adds WGS84 lat/lng from the grid reference. A postcode
 * without coordinates (quality 90, eastings 0) is yielded with has_location false.
 */
export async function* readCodePoint(path: string, rejects: RejectLog): AsyncGenerator<CodePointRow> {
  let first = true;
  for await (const { fields, line } of readCsvRecords(path, rejects)) {
    if (first) {
      first = false;
      // Headerless format: the first record must already look like data.
      if (fields.length !== CODEPOINT_COLUMNS.length || !/^\d+$/.test(fields[1]?.trim() ?? '')) {
        throw new Error(
          `${path}: not a Code-Point Open area file (first record has ${fields.length} fields, ` +
            `expected ${CODEPOINT_COLUMNS.length} with a numeric quality indicator and no header)`,
        );
      }
    }
    if (fields.length !== CODEPOINT_COLUMNS.length) {
      rejects.add('column_count', line, `${fields.length} fields, expected ${CODEPOINT_COLUMNS.length}`);
      continue;
    }
    const [pc, pq, ea, no, cy, rh, lh, cc, dc, wc] = fields as [string, string, string, string, string, string, string, string, string, string];
    const e = blankToUndef(ea);
    const n = blankToUndef(no);
    // A blank coordinate on a located postcode is left for the schema to reject.
    const located = Number(pq) !== NO_COORDINATES && !(Number(e) === 0 && Number(n) === 0);
    const candidate = {
      postcode: formatPostcode(pc),
      positional_quality: pq.trim(),
      has_location: located,
      easting: located ? e : undefined,
      northing: located ? n : undefined,
      lat: undefined as number | undefined,
      lng: undefined as number | undefined,
      country_code: cy,
      nhs_regional_ha_code: rh,
      nhs_ha_code: lh,
      admin_county_code: cc,
      admin_district_code: dc,
      admin_ward_code: wc,
    };
    if (located && e !== undefined && n !== undefined) {
      const en = [Number(e), Number(n)];
      if (en.every(Number.isFinite)) {
        const { lat, lng } = bngToWgs84(en[0]!, en[1]!);
        candidate.lat = deg6(lat);
        candidate.lng = deg6(lng);
      }
    }
    const row = validateRow(CodePointRow, candidate, rejects, line);
    if (row) yield row;
  }
}
