import { join } from 'node:path';
import type { BlockCache } from '../../lib/files/block-file.ts';
import { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';
import { LOOKUP_FILES, lookupMetaMismatch, type LookupFileSpec } from '../../lib/files/lookup-tables-format.ts';
import type { BuildInfo } from '../build/source.ts';
import type { Row } from '../store/queries.ts';

/**
 * The lookup tables' keyed-rows files (lib/files/lookup-tables-format.ts), written by the ETL
 * and read where they lie on the build's page cache (issue 46, ADR 0015 steps 2 and 6). A row is
 * the query's row, its key included: the same values the in-heap table gives, decoded by the
 * query's declaration (test/service/lookup-files.test.ts compares every key of a build).
 */
export interface LookupFiles {
  sales: KeyedRowsFile<Row<'lookup_sales_rows'>>;
  epc: KeyedRowsFile<Row<'lookup_epc_rows'>>;
  postcodes: KeyedRowsFile<Row<'lookup_postcode_rows'>>;
  typeMonths: KeyedRowsFile<Row<'lookup_type_months_rows'>>;
  areaCounts: KeyedRowsFile<Row<'lookup_area_counts'>>;
  areaMix: KeyedRowsFile<Row<'lookup_area_mix'>>;
  areaIndex: KeyedRowsFile<Row<'lookup_index_series'>>;
  areaGrowth: KeyedRowsFile<Row<'lookup_growth'>>;
  areaSqft: KeyedRowsFile<Row<'lookup_area_prices'>>;
  areaRents: KeyedRowsFile<Row<'lookup_area_rents'>>;
  areaStr: KeyedRowsFile<Row<'lookup_area_str'>>;
  areaRooms: KeyedRowsFile<Row<'lookup_room_rents'>>;
}

export class LookupFileError extends Error {
  override name = 'LookupFileError';
}

/**
 * Opens table `name`'s file when the build's manifest lists its artifact; null when it does
 * not (a build published before the ETL wrote it: the caller makes the table in the heap).
 * A listed file that is missing, cut short, of another kind or of another table throws a
 * `LookupFileError` naming it.
 */
export function openLookupFile<N extends keyof LookupFiles>(build: BuildInfo, name: N, pages: BlockCache): LookupFiles[N] | null {
  return openServingFile<LookupFiles[N] extends KeyedRowsFile<infer R> ? R : never>(build, LOOKUP_FILES[name], pages, `${name} lookup`) as LookupFiles[N] | null;
}

/**
 * Opens the keyed-rows file of any `LookupFileSpec` (a lookup table, a point set by grid cell)
 * as `openLookupFile` does: null when the manifest does not list it, a `LookupFileError` naming
 * it when it is listed but missing, cut short or not the spec's (`label` names it there).
 */
export function openServingFile<R>(build: BuildInfo, spec: LookupFileSpec, pages: BlockCache, label: string): KeyedRowsFile<R> | null {
  const artifacts = build.manifest.artifacts as Record<string, { file?: unknown }> | undefined;
  const listed = artifacts?.[spec.artifact];
  if (!listed) return null;
  if (listed.file !== spec.file) throw new LookupFileError(`build ${build.id}: artifact ${spec.artifact} is ${String(listed.file)}, not ${spec.file}`);
  const path = join(build.dir, spec.file);
  let file: KeyedRowsFile<R>;
  try {
    file = KeyedRowsFile.open<R>(path, pages);
  } catch (e) {
    throw new LookupFileError(`build ${build.id}: the ${label} file cannot be read: ${(e as Error).message}`, { cause: e });
  }
  const mismatch = lookupMetaMismatch(file.meta, spec);
  if (mismatch) {
    file.close();
    throw new LookupFileError(`build ${build.id}: ${path} is not the ${label} table: it ${mismatch}`);
  }
  return file;
}
