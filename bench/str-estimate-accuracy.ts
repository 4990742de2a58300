/**
 * Leave-one-out accuracy of the STR estimate (POST /valuations/str-estimate) on the synthetic
 * region, against its truth (test/support/str-accuracy.ts).
 *   npx tsx bench/str-estimate-accuracy.ts [--addresses N] [--seed S]
 * Writes bench/results/str-estimate-accuracy-<N>-seed<S>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { stagedContext } from '../test/support/region.ts';
import { strEstimateAccuracy } from '../test/support/str-accuracy.ts';

const { values } = parseArgs({ options: { addresses: { type: 'string', default: '60000' }, seed: { type: 'string', default: '42' } } });
const addresses = Number(values.addresses);
const seed = Number(values.seed);
const t0 = performance.now();
const ctx = await stagedContext(addresses, seed);
const staged = (performance.now() - t0) / 1000;
const t1 = performance.now();
const acc = await strEstimateAccuracy(ctx.conn, ctx.sourcesDir);
const out = { addresses, seed, staged_seconds: staged, accuracy_seconds: (performance.now() - t1) / 1000, ...acc };
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
const dir = resolve(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, `str-estimate-accuracy-${addresses}-seed${seed}.json`), `${JSON.stringify(out, null, 2)}\n`);
