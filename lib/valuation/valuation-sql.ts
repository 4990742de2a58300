import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The sale valuation's queries the ETL runs too (lib/valuation/sql/): the service reads them
 * from here by name like its own (service/store/store.ts), so the evidence the ETL writes
 * (lib/files/sale-evidence-file.ts) and the in-heap model read the same rows.
 */
export const VALUATION_SQL_DIR = join(import.meta.dirname, 'sql');

/** The text of a shared valuation query (`sql/<name>.sql`). */
export function valuationSql(name: string): string {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad SQL file name: ${name}`);
  return readFileSync(join(VALUATION_SQL_DIR, `${name}.sql`), 'utf8');
}
