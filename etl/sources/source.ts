import type { StageColumn, StageType } from '../pipeline/load-rows.ts';
import type { NativeKind } from './native-layout.ts';
import type { RejectLog } from './rejects.ts';

/** A file under one of a source's folders, as discovery sees it. */
export interface SniffedFile {
  /** Its base name, lower-cased. */
  name: string;
  /** Its path below the sources folder, split into lower-cased parts (the first is the folder). */
  parts: string[];
  /** Its first line, lower-cased (gzip transparent, BOM stripped); read once, when first asked. */
  head(): Promise<string>;
}

/**
 * A source's verdict on a file of its folders: `true`, it is this source's; `{ reason }`, it
 * is no source at all (recorded in the manifest's ignored files); undefined, not this
 * source's, another of the folder's sources may claim it.
 */
export type Sniff = true | { reason: string } | undefined;

/**
 * One kind of source file: how discovery recognises it, how staging reads it, and into
 * which staging table. Each kind lives in `etl/sources/<kind>/` and is listed once in
 * `etl/sources/index.ts` (docs/etl.md, "Adding a source").
 */
export interface Source<Row> {
  kind: string;
  /** The top-level folders of a sources folder whose files may be this kind (lower case). */
  folders: readonly string[];
  sniff(file: SniffedFile): Sniff | Promise<Sniff>;
  /** The reason given to a file of these folders that no source claims (needed on one source of a shared folder). */
  unclaimed?: string;
  /**
   * The reader's version, part of the staging cache key: bump it when the rows a file
   * stages change for a reason outside the staging code (a package upgrade, say). Edits to
   * the code itself invalidate the cache without a bump (`etl/pipeline/code-fingerprint.ts`).
   */
  version: number;
  table: string;
  read: (path: string, rejects: RejectLog) => AsyncGenerator<Row>;
  columns: StageColumn<Row>[];
  /** The date a row speaks for (ISO), whose maximum is the source's as-of date. */
  date?: (row: Row) => string | undefined;
  /** Its native path, for a regular bulk format; absent: every file is read by `read`. */
  native?: NativeKind;
}

/** A source with its row type erased, as the registry and the engine hold it. */
export type AnySource = Source<unknown>;

/** Columns copied from same-named row properties. */
export function same<Row>(type: StageType, ...names: (keyof Row & string)[]): StageColumn<Row>[] {
  return names.map((name) => ({ name, type, get: (r: Row) => r[name] }));
}

/** Erases the row type so sources of different rows sit in one list, keeping the literal kind. */
export function source<Row, Kind extends string>(s: Source<Row> & { kind: Kind }): AnySource & { kind: Kind } {
  return s as unknown as AnySource & { kind: Kind };
}

/** The verdict for a file that is not CSV (plain or gzipped) in a folder of CSV sources; undefined for a CSV file. */
export function notCsv(file: SniffedFile): { reason: string } | undefined {
  return /\.csv(\.gz)?$/i.test(file.name) ? undefined : { reason: 'not a CSV file' };
}
