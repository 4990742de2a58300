import type { ColumnKind, ColumnSpec, RecordFile } from './record-file-format.ts';

/**
 * What a view reads: a record file in the heap (`RecordFile`) or read where it lies
 * (`PagedRecordFile`, paged-record-file.ts), the same columns and rows either way.
 */
export type RecordSource = Pick<RecordFile, 'columns' | 'path' | 'project'>;

/**
 * A typed view of a record file: the reader declares the columns it reads (names and kinds,
 * `as const`), the view checks them against the file's own column list when it is made, and
 * `get` returns rows typed from the declaration. The values are the file's decoding
 * (`RecordFile`: NaN, code 0 and the null flag read as null), so a NULL stays `null`, never a 0
 * or an empty string, and no reader converts values itself.
 */

/** What a column of each kind holds once decoded: `num`/`small` numbers, `bool` booleans, `dict`/`text` strings; null for NULL. */
export type KindValue<K extends ColumnKind> = (K extends 'num' | 'small' ? number : K extends 'bool' ? boolean : string) | null;

/** A row of the declared columns, with its uprn. */
export type RecordOf<C extends readonly ColumnSpec[]> = { readonly uprn: number } & {
  readonly [S in C[number] as S['name']]: KindValue<S['kind']>;
};

export interface RecordView<C extends readonly ColumnSpec[]> {
  /** The file read (another reader makes its own view of it). */
  readonly file: RecordSource;
  readonly columns: C;
  /** The row of `uprn`, its declared columns only, or undefined. */
  get(uprn: number): RecordOf<C> | undefined;
}

/** A record file whose columns are not the ones a reader declares; names each column that differs. */
export class RecordColumnsError extends Error {
  constructor(readonly path: string, readonly columns: readonly string[], detail: string) {
    super(`${path}: ${detail}`);
    this.name = 'RecordColumnsError';
  }
}

/** The declared columns the file lacks (by name; a column present with another kind is not counted here). */
export function missingColumns(file: RecordSource, declared: readonly ColumnSpec[]): string[] {
  const names = new Set(file.columns.map((c) => c.name));
  return declared.filter((c) => !names.has(c.name)).map((c) => c.name);
}

/**
 * The view of `declared` over `file`; throws a RecordColumnsError naming every declared column
 * the file lacks or holds with another kind (columns it has beyond those are not read).
 */
export function recordView<const C extends readonly ColumnSpec[]>(file: RecordSource, declared: C): RecordView<C> {
  const kinds = new Map(file.columns.map((c) => [c.name, c.kind]));
  const missing = missingColumns(file, declared);
  const wrongKind = declared.filter((c) => kinds.has(c.name) && kinds.get(c.name) !== c.kind);
  if (missing.length > 0 || wrongKind.length > 0) {
    const declaredNames = new Set(declared.map((c) => c.name));
    const extra = file.columns.filter((c) => !declaredNames.has(c.name)).map((c) => c.name);
    const parts = [
      ...(missing.length > 0 ? [`lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}${extra.length > 0 ? ` (it has ${extra.join(', ')} besides the declared ones)` : ''}`] : []),
      ...wrongKind.map((c) => `holds ${c.name} as ${kinds.get(c.name)}, not ${c.kind}`),
    ];
    throw new RecordColumnsError(file.path, [...missing, ...wrongKind.map((c) => c.name)], `the record file ${parts.join('; ')}`);
  }
  const read = file.project(declared.map((c) => c.name));
  return { file, columns: declared, get: (uprn) => read(uprn) as RecordOf<C> | undefined };
}

/** The columns of `from` named in `names`, kinds included, for a reader that reads only those. */
export function pickColumns<C extends readonly ColumnSpec[], const N extends readonly C[number]['name'][]>(
  from: C,
  names: N,
): ReadonlyArray<Extract<C[number], { name: N[number] }>> {
  return names.map((n) => {
    const c = from.find((x) => x.name === n);
    if (!c) throw new Error(`no column ${n} among ${from.map((x) => x.name).join(', ')}`);
    return c as Extract<C[number], { name: N[number] }>;
  });
}
