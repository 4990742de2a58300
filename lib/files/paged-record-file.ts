import { BlockFileError, type BlockCache } from './block-file.ts';
import { KeyedRowsFile, KeyedRowsWriter, type ValueKind } from './keyed-rows-file.ts';
import type { ColumnSpec, RecordValue } from './record-file-format.ts';

/**
 * The property record file read where it lies (issue 46, ADR 0015 step 3): the same rows as
 * `property-records.bin` (record-file-format.ts) as a keyed-rows file (keyed-rows-file.ts),
 * unique by UPRN, a row's columns together in a 4 KB page, so a lookup reads one page through
 * the build's block cache and the heap holds only the page directory and the small dictionaries.
 */
export const PROPERTY_RECORDS_PAGED_FILE = 'property-records.rows';

/**
 * Dict columns written as text in the paged file: a keyed-rows dictionary lives in the heap,
 * and a postcode has about one value per 18 homes (1.7M in the country), where a type or a
 * rating has a handful.
 */
const TEXT_IN_PAGES = new Set(['postcode']);

/** How a record column is stored in the paged file (its record-file kind stays in the meta). */
export function pagedKind(c: ColumnSpec): ValueKind {
  return c.kind === 'dict' && TEXT_IN_PAGES.has(c.name) ? 'text' : c.kind;
}

/** The writer of a paged record file with `columns` (in the record file's order); rows by ascending UPRN. */
export function pagedRecordWriter(path: string, columns: readonly ColumnSpec[]): KeyedRowsWriter {
  return new KeyedRowsWriter(path, {
    key: { name: 'uprn', kind: 'num' },
    columns: columns.map((c) => ({ name: c.name, kind: pagedKind(c) })),
    unique: true,
    extra: { record_columns: columns },
  });
}

/**
 * A record file read paged: the same `columns`, `path` and `project` as the in-heap `RecordFile`,
 * so typed views (record-view.ts) read either. Lookups decode from the block cache; a page the
 * file lost since it opened (truncated in place) throws a `BlockFileError`, never another row.
 */
export class PagedRecordFile {
  /** The record columns (kinds as in the record file: a postcode is `dict` though stored as text). */
  readonly columns: readonly ColumnSpec[];

  private constructor(private readonly rows: KeyedRowsFile<Record<string, RecordValue>>) {
    this.columns = rows.meta.extra?.record_columns as ColumnSpec[];
  }

  /** Opens `path` on `cache`; a file that is not a paged record file throws a `BlockFileError` naming it. */
  static open(path: string, cache: BlockCache): PagedRecordFile {
    const rows = KeyedRowsFile.open<Record<string, RecordValue>>(path, cache);
    try {
      const m = rows.meta;
      const columns = m.extra?.record_columns;
      if (m.key.name !== 'uprn' || m.key.kind !== 'num' || !m.unique) throw new BlockFileError(`${path} is not a paged record file (its key is ${m.key.name}, ${m.key.kind}${m.unique ? '' : ', not unique'})`);
      if (!Array.isArray(columns)) throw new BlockFileError(`${path} is not a paged record file (no record_columns in its meta)`);
      const stored = new Map(m.columns.map((c) => [c.name, c.kind]));
      for (const c of columns as ColumnSpec[]) {
        if (stored.get(c.name) !== pagedKind(c)) throw new BlockFileError(`${path}: record column ${c.name} (${c.kind}) is stored as ${stored.get(c.name) ?? 'nothing'}, not ${pagedKind(c)}`);
      }
      return new PagedRecordFile(rows);
    } catch (e) {
      rows.close();
      throw e;
    }
  }

  get path(): string {
    return this.rows.path;
  }

  get n(): number {
    return this.rows.size;
  }

  /** The row of `uprn` as column name → value (uprn a number), or undefined. */
  get(uprn: number): Record<string, RecordValue> | undefined {
    return this.rows.first(uprn);
  }

  /** A lookup like `get` that returns only the columns `names` (each one of the file's: a name it lacks throws). */
  project(names: readonly string[]): (uprn: number) => Record<string, RecordValue> | undefined {
    for (const name of names) if (!this.columns.some((c) => c.name === name)) throw new Error(`the record file has no column ${name}`);
    return (uprn) => {
      const row = this.rows.first(uprn);
      if (!row) return undefined;
      const out: Record<string, RecordValue> = { uprn };
      for (const name of names) out[name] = row[name]!;
      return out;
    };
  }

  /** Every row in UPRN order, a megabyte at a time past the cache (keyed-rows `scan`). */
  scan(): Generator<Record<string, RecordValue>> {
    return this.rows.scan();
  }

  close(): void {
    this.rows.close();
  }
}
