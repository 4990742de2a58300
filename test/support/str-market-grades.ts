import type { DuckDBConnection } from '@duckdb/node-api';
import { dimensionValues, gradeOf, type Grade } from '../../service/domain/str/market-grade.ts';
import { connectionReads } from '../../service/store/store.ts';
import { StrMarketSet } from '../../service/str/market-set.ts';

/**
 * The market set the service would load, built from a connection holding the STR marts
 * (a staged context), and the grade of every benchmark area (postcode sector) of it.
 */
export async function marketGrades(conn: DuckDBConnection): Promise<{ set: StrMarketSet; grades: { area: string; grade: Grade }[] }> {
  const set = await StrMarketSet.load(connectionReads(conn));
  const grades = set.bench().areas.map((area) => ({ area, grade: gradeOf(set.bench(), dimensionValues(set.listings, set.sector(area))) }));
  return { set, grades };
}

/** Areas per letter, A to F. */
export function letterCounts(grades: readonly { grade: Grade }[]): Record<Grade['letter'], number> {
  const out = { A: 0, B: 0, C: 0, D: 0, E: 0, F: 0 };
  for (const g of grades) out[g.grade.letter]++;
  return out;
}
