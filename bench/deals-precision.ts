/**
 * Sourcing deals precision on the synthetic region (docs/sourcing.md):
 *   npx tsx bench/deals-precision.ts [--addresses 100000] [--seed 42]
 * Generates the region, runs the real ETL, then measures the top 20 per outcode against the
 * truth beside the naive "below the area median" baseline; writes bench/results/deals-precision-<N>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runBuild } from '../etl/pipeline/run.ts';
import { generateRegion } from '../etl/synth/generate.ts';
import { quietLog } from '../test/support/region.ts';
import { tempDir } from '../test/support/tmp.ts';
import { dealsPrecision } from './support/deals-precision.ts';

const { values } = parseArgs({ options: { addresses: { type: 'string', default: '100000' }, seed: { type: 'string', default: '42' } } });
const addresses = Number(values.addresses);
const seed = Number(values.seed);
const tmp = tempDir('pi-deals-');
try {
  const sources = join(tmp.dir, 'sources');
  const dataDir = join(tmp.dir, 'data');
  await generateRegion({ out: sources, addresses, seed });
  await runBuild({ dataDir, sourcesDir: sources, log: quietLog, now: new Date('2025-10-01T00:00:00Z') });
  const r = await dealsPrecision(dataDir, sources, 20);
  const out = join(import.meta.dirname, 'results', `deals-precision-${addresses}.json`);
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  writeFileSync(out, JSON.stringify({ addresses, seed, ...r }, null, 2) + '\n');
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  console.log(`${addresses} addresses, seed ${seed}: ${r.outcodes} outcodes; truly underpriced among available for-sale listings ${pct(r.truly_underpriced_share)}`);
  console.log(`deals top ${r.k}/outcode: ${r.deals.hits}/${r.deals.picked} = ${pct(r.deals.precision)}; by confidence ${JSON.stringify(r.deals.by_confidence)}`);
  console.log(`baseline (below the outcode median asking price) top ${r.k}/outcode: ${r.baseline.hits}/${r.baseline.picked} = ${pct(r.baseline.precision)}`);
  console.log(`written ${out}`);
} finally {
  tmp.cleanup();
}
