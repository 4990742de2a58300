/**
 * The market grade's distribution across the synthetic region's areas (postcode sectors
 * in the benchmark): letters, scores and the dimensions named strongest and weakest.
 *   npx tsx bench/str-market-grades.ts [--addresses 20000] [--seed 11]
 * Writes bench/results/str-market-grades-<addresses>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { stagedContext } from '../test/support/region.ts';
import { letterCounts, marketGrades } from '../test/support/str-market-grades.ts';

const { values } = parseArgs({ options: { addresses: { type: 'string', default: '20000' }, seed: { type: 'string', default: '11' } } });
const addresses = Number(values.addresses);
const seed = Number(values.seed);
const ctx = await stagedContext(addresses, seed);
const { set, grades } = await marketGrades(ctx.conn);
const named = (k: 'strongest' | 'weakest') => {
  const m: Record<string, number> = {};
  for (const g of grades) for (const d of g.grade[k]) m[d] = (m[d] ?? 0) + 1;
  return m;
};
const result = {
  addresses, seed, listings: set.listings.n,
  sectors: new Set(set.listings.sector.filter(Boolean)).size,
  benchmark_areas: set.bench().areas.length,
  letters: letterCounts(grades),
  strongest: named('strongest'),
  weakest: named('weakest'),
  areas: grades.map((g) => ({ area: g.area, ...g.grade })),
};
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(join(import.meta.dirname, 'results', `str-market-grades-${addresses}.json`), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify({ ...result, areas: undefined }, null, 2));
process.exit(0);
