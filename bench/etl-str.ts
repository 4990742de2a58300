/**
 * Accuracy of the short-term-let estimates on the synthetic region, against its truth.
 *   npx tsx bench/etl-str.ts [--addresses N] [--seed S]
 * Generates a region, runs the core build and the STR marts, loads truth/listing-months.csv
 * and prints the median absolute percentage errors (etl/stages/40-marts/70-str/str_accuracy_synth.sql) for the
 * method as configured and with some assumptions varied; writes bench/results/etl-str-<N>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { queryRows, stageSql } from '../etl/pipeline/sql.ts';
import { buildStrMarts } from '../etl/stages/40-marts/70-str/stage.ts';
import { stagedContext } from '../test/support/region.ts';

const { values } = parseArgs({ options: { addresses: { type: 'string', default: '50000' }, seed: { type: 'string', default: '42' } } });
const addresses = Number(values.addresses);
const seed = Number(values.seed);

const t0 = performance.now();
const ctx = await stagedContext(addresses, seed);
const tStaged = performance.now();
await ctx.conn.run(`CREATE TABLE truth_listing_months AS SELECT * FROM read_csv($p, header = true, all_varchar = false, types = {'listing_id': 'VARCHAR', 'month': 'VARCHAR'})`,
  { p: join(ctx.sourcesDir, 'truth', 'listing-months.csv') });

const variants: [string, Record<string, number>][] = [
  ['method as configured', {}],
  ['no occupancy cap', { max_occupancy: 1 }],
  ['flat ADR (elasticity 0)', { adr_elasticity: 0 }],
  ['ADR elasticity 1', { adr_elasticity: 1 }],
  ['stay = minimum nights, at least 2', { default_stay: 2 }],
];
const results: Record<string, unknown>[] = [];
let martSeconds = 0;
for (const [name, overrides] of variants) {
  const t = performance.now();
  await buildStrMarts(ctx.conn, overrides);
  if (results.length === 0) martSeconds = (performance.now() - t) / 1000;
  const [row] = await queryRows(ctx.conn, stageSql('40-marts/70-str').text('str_accuracy_synth'));
  results.push({ variant: name, ...row });
}
const fmt = (v: unknown) => (typeof v === 'number' ? v.toFixed(3) : String(v));
for (const r of results) process.stdout.write(`${Object.entries(r).map(([k, v]) => `${k}=${fmt(v)}`).join(' ')}\n`);
const out = { addresses, seed, staged_seconds: (tStaged - t0) / 1000, str_marts_seconds: martSeconds, results };
const dir = resolve(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, `etl-str-${addresses}.json`), `${JSON.stringify(out, null, 2)}\n`);
process.stdout.write(`staged in ${out.staged_seconds.toFixed(1)} s; STR marts in ${martSeconds.toFixed(2)} s\n`);
