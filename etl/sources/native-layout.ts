import { ADDRESSBASE_REQUIRED, ADDRESSBASE_COLUMNS } from '../../../../sources/addressbase/read.ts';
import { EPC_DIRECT, EPC_ID_COLUMNS, EPC_REQUIRED } from '../../../../sources/epc/read.ts';
import { SCOTTISH_EPC_DIRECT, scottishEpcHeader } from '../../../../sources/epc_scotland/read.ts';
import { GUID_CELL } from '../../../../sources/price_paid/read.ts';
import { headerIndex, type CsvRecord } from '../../../../sources/csv.ts';
import type { SourceKind } from '../../../../sources/index.ts';
import { PPD_COLUMNS } from '../../../../../schemas/sources/price-paid.ts';
import { OS_UPRN_HEADER } from '../../../../../schemas/sources/os-uprn.ts';
import { RENTAL_EVIDENCE_HEADER } from '../../../../../schemas/sources/rents.ts';
import { AIRBNB_CALENDAR_HEADER, AIRBNB_REVIEWS_HEADER, AIRBNB_REVIEWS_SUMMARY_HEADER } from '../../../../../schemas/sources/airbnb.ts';

/**
 * How one file of a kind is read natively, decided from its first records as its TS reader
 * decides: the name of each column in file order (the roles the checking SQL reads, `x<i>`
 * for the rest), whether a record is a header, the lines passed over before it, and the
 * checking SQL's parameters.
 */
export interface NativeLayout {
  names: string[];
  header: boolean;
  /** Lines before the header row (a Scottish file's first of two header rows); none if absent. */
  skip?: number;
  params?: Record<string, boolean>;
}

export interface NativeKind {
  /** `native_check_<sql>.sql` and `native_insert_<sql>.sql`. */
  sql: string;
  /** Run before the check where two kinds share it: the SQL making the candidate rows it checks from this kind's columns. */
  candidates?: string;
  /** The reason the TS reader gives a row of the wrong width; undefined: it has no width check, so such a file is read by it. */
  widthReason?: 'wrong_column_count' | 'column_count';
  /**
   * From the file's first record (and what follows it: its second record, `refused` when
   * csv-parse refused the next one): undefined when the TS reader would read the file another
   * way or refuse it (it then does).
   */
  layout(first: string[], second?: CsvRecord | 'refused'): NativeLayout | undefined;
}

/** Names per position: `roles` maps a role to the position the reader takes it from. */
function named(width: number, roles: Map<string, number>): string[] {
  const names = Array.from({ length: width }, (_, i) => `x${i}`);
  for (const [role, i] of roles) names[i] = role;
  return names;
}

/** Roles found in a header: role → first position of its column (the TS readers keep the first of a repeated name). */
function rolesIn(header: string[], columns: Record<string, string>): Map<string, number> {
  return rolesAt(headerIndex(header).index, columns);
}

/** Roles found in a header's index (column name → position). */
function rolesAt(index: Map<string, number>, columns: Record<string, string>): Map<string, number> {
  const roles = new Map<string, number>();
  for (const [role, name] of Object.entries(columns)) {
    const i = index.get(name);
    if (i !== undefined) roles.set(role, i);
  }
  return roles;
}

const has = (header: string[], names: readonly string[]) => names.every((n) => headerIndex(header).index.has(n));

/** A header whose columns (names trimmed, found by name) are the checking SQL's roles: each `columns` name must be there. */
function byOwnNames(first: string[], columns: readonly string[]): NativeLayout | undefined {
  const header = first.map((f) => f.trim());
  if (!has(header, columns)) return undefined;
  return { names: named(first.length, rolesIn(header, Object.fromEntries(columns.map((c) => [c, c])))), header: true };
}

const pricePaid: NativeKind = {
  sql: 'price_paid',
  widthReason: 'wrong_column_count',
  // Only the headerless bulk layout; the report-builder CSV (header, other order, glued header) stays with the TS reader.
  layout(first) {
    if (first.length !== PPD_COLUMNS.length) return undefined;
    const cell = first[0]!.trim();
    const header = cell.toLowerCase() === PPD_COLUMNS[0];
    if (!header && !GUID_CELL.test(cell)) return undefined;
    return { names: first.map((_, i) => `c${i}`), header };
  },
};

const epc: NativeKind = {
  sql: 'epc',
  candidates: 'native_candidates_epc',
  widthReason: 'wrong_column_count',
  layout(first) {
    const header = first.map((f) => f.trim().toUpperCase());
    const id = EPC_ID_COLUMNS.find((c) => header.includes(c));
    if (id === undefined || !has(header, EPC_REQUIRED)) return undefined;
    const roles = rolesIn(header, { ...EPC_DIRECT, uprn: 'UPRN', building_reference_number: 'BUILDING_REFERENCE_NUMBER', id });
    return { names: named(first.length, roles), header: true };
  },
};

const epcScotland: NativeKind = {
  sql: 'epc',
  candidates: 'native_candidates_epc_scotland',
  widthReason: 'wrong_column_count',
  // The reader takes either header row first and skips a second one, mapping columns from
  // the row that names them (rather than describes them).
  layout(first, second) {
    const one = scottishEpcHeader(first);
    // The reader takes the record after a refused one as its second: left to it.
    if (!one || second === 'refused') return undefined;
    const two = second && scottishEpcHeader(second.fields);
    // DuckDB skips lines, not records: a second header row is skipped only if it is line 2; and
    // it has the first's width, or DuckDB would refuse it as a row where the reader skips it.
    if (two && (second.line !== 2 || second.fields.length !== first.length)) return undefined;
    const header = two && !one.named && two.named ? two : one;
    const roles = rolesAt(header.col, { report: 'REPORT_REFERENCE_NUMBER', brn: 'BUILDING_REFERENCE_NUMBER', osg: 'OSG_REFERENCE_NUMBER', ...SCOTTISH_EPC_DIRECT });
    return { names: named(first.length, roles), header: true, skip: two ? 1 : 0 };
  },
};

const addressbase: NativeKind = {
  sql: 'addressbase',
  widthReason: 'wrong_column_count',
  layout(first) {
    const header = first.map((f) => f.trim().toUpperCase());
    if (!has(header, ADDRESSBASE_REQUIRED)) return undefined;
    return { names: named(first.length, rolesIn(header, ADDRESSBASE_COLUMNS)), header: true };
  },
};

const osUprn: NativeKind = {
  sql: 'os_uprn',
  layout(first) {
    const header = first.map((f) => f.trim());
    if (!has(header, OS_UPRN_HEADER)) return undefined;
    const roles = rolesIn(header, { uprn: 'UPRN', x: 'X_COORDINATE', y: 'Y_COORDINATE', lat: 'LATITUDE', lng: 'LONGITUDE' });
    return { names: named(first.length, roles), header: true };
  },
};

const airbnbCalendar: NativeKind = {
  sql: 'airbnb_calendar',
  widthReason: 'column_count',
  layout: (first) => byOwnNames(first, AIRBNB_CALENDAR_HEADER),
};

const airbnbReviews: NativeKind = {
  sql: 'airbnb_reviews',
  widthReason: 'column_count',
  layout(first) {
    const header = first.map((f) => f.trim());
    const detailed = header.includes('comments');
    if (!has(header, detailed ? AIRBNB_REVIEWS_HEADER : AIRBNB_REVIEWS_SUMMARY_HEADER)) return undefined;
    const roles = rolesIn(header, { listing_id: 'listing_id', date: 'date', ...(detailed ? { id: 'id', reviewer_id: 'reviewer_id' } : {}) });
    return { names: named(first.length, roles), header: true, params: { detailed } };
  },
};

const rentalEvidence: NativeKind = {
  sql: 'rental_evidence',
  // No widthReason: the reader reads a short row's missing cells as blank, so such a file is read by it.
  layout: (first) => byOwnNames(first, RENTAL_EVIDENCE_HEADER),
};

/** The kinds with a native path: the regular bulk formats. Every other kind is read by its TS reader. */
export const NATIVE_KINDS: Partial<Record<string, NativeKind>> = {
  price_paid: pricePaid, epc, epc_scotland: epcScotland, addressbase, os_uprn: osUprn, airbnb_calendar: airbnbCalendar, airbnb_reviews: airbnbReviews,
  rental_evidence: rentalEvidence,
} satisfies Partial<Record<SourceKind, NativeKind>>;
