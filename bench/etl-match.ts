/**
 * Address matching alone (the `match_addresses` stage), on a region's staged tables.
 *   npx tsx bench/etl-match.ts [--addresses N] [--seed S] [--runs R] [--threads T]
 * Stages the synthetic region once (stage_sources and addresses, as a build does, into a
 * temporary folder), then runs the stage R times on a fresh copy of its inputs (addresses,
 * stg_price_paid, stg_epc) under the build's DuckDB settings, with no match cache, so every
 * record goes through the matcher. A whole build's time varies by tens of seconds on a busy
 * machine; this isolates the stage, so a change to the matcher can be compared in runs
 * alternated with the code before it. Prints each run and the median, and a digest of the
 * two match tables' content (order aside): two versions that must agree must print the same.
 * Writes bench/results/etl-match-<N>.json.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureRegion } from './support/bench-build.ts';
import { median, r2 } from './support/stats.ts';
import type { BuildContext, EtlLogger } from '../etl/pipeline/context.ts';
import { discoverSources } from '../etl/pipeline/discover.ts';
import { SOURCES } from '../etl/sources/index.ts';
import { openBuildDatabase } from '../etl/pipeline/run.ts';
import { stageSourcesStage } from '../etl/stages/10-staging/10-stage-sources/stage.ts';
import { pricePaidCurrentStage } from '../etl/stages/10-staging/20-price-paid-current/stage.ts';
import { addressesStage } from '../etl/stages/20-merged/10-addresses/stage.ts';
import { matchAddresses } from '../etl/stages/20-merged/20-match-addresses/stage.ts';

const { values } = parseArgs({
  options: { addresses: { type: 'string', default: '100000' }, seed: { type: 'string', default: '42' }, runs: { type: 'string', default: '3' }, threads: { type: 'string' } },
});
const addresses = Number(values.addresses);
const seed = Number(values.seed);
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number from 1, not ${values.runs}`);
if (values.threads) process.env.ETL_MATCH_THREADS = values.threads;

const INPUTS = ['addresses', 'ppd_current', 'stg_epc'] as const;
const log: EtlLogger = { info: () => undefined, warn: (o, m) => process.stderr.write(`warn ${m ?? ''} ${JSON.stringify(o)}\n`), error: (o, m) => process.stderr.write(`error ${m ?? ''} ${JSON.stringify(o)}\n`) };

/** A database with the build's settings (etl/pipeline/run.ts) and a context without caches. */
async function open(dir: string, sourcesDir: string, spill: string): Promise<BuildContext> {
  const db = await openBuildDatabase(join(dir, spill));
  const conn = await db.connect();
  const now = new Date();
  return {
    db, conn, sourcesDir, buildDir: dir, buildId: 'bench', now, today: now.toISOString().slice(0, 10), files: [], ignored: [], sources: [],
    published: [], artifacts: {}, matchRates: {}, quality: {}, log, progress: () => undefined,
  };
}

/** The match tables' row counts and an order-free digest of their rows. */
async function digest(conn: DuckDBConnection): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of ['sale_matches', 'epc_matches']) {
    const r = (await conn.runAndReadAll(`SELECT count(*)::VARCHAR || ' rows, ' || coalesce(bit_xor(hash(id, uprn, method, score, reason)), 0)::VARCHAR AS d FROM ${t}`)).getRowObjectsJson();
    out[t] = String(r[0]?.d);
  }
  return out;
}

const region = await ensureRegion(addresses, seed);
const dir = mkdtempSync(join(tmpdir(), `etl-match-bench-${addresses}-`));
try {
  process.stderr.write(`staging ${region} ...\n`);
  const prep = await open(dir, region, '.spill-prep');
  prep.files = (await discoverSources(region, SOURCES)).files;
  await stageSourcesStage.run(prep);
  await pricePaidCurrentStage.run(prep);
  await addressesStage.run(prep);
  for (const t of INPUTS) await prep.conn.run(`COPY ${t} TO '${join(dir, `${t}.parquet`)}' (FORMAT parquet)`);
  prep.conn.closeSync();
  prep.db.closeSync();

  const seconds: number[] = [];
  const digests = new Set<string>();
  let rates: Record<string, number> = {};
  for (let i = 0; i < runs; i++) {
    // Each database its own spill folder: one still open must not find another's files in it.
    const ctx = await open(dir, region, `.spill-${i}`);
    // Loaded in the file's row order, as the staging cache loads a table (INSERT does not promise it otherwise).
    for (const t of INPUTS) {
      await ctx.conn.run(`CREATE TABLE ${t} AS SELECT * EXCLUDE (file_row_number) FROM read_parquet('${join(dir, `${t}.parquet`)}', file_row_number = true) ORDER BY file_row_number`);
    }
    const t0 = performance.now();
    await matchAddresses.run(ctx);
    seconds.push((performance.now() - t0) / 1000);
    const d = await digest(ctx.conn);
    digests.add(JSON.stringify(d));
    rates = ctx.matchRates;
    process.stdout.write(`run ${i + 1}: ${seconds.at(-1)!.toFixed(2)} s  sale_matches ${d.sale_matches}  epc_matches ${d.epc_matches}\n`);
    ctx.conn.closeSync();
    ctx.db.closeSync();
  }
  if (digests.size > 1) throw new Error(`the runs disagree: ${[...digests].join(' / ')}`);
  const mid = median(seconds);
  const result = {
    addresses, seed, runs, threads: Number(process.env.ETL_MATCH_THREADS ?? 1), when: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, load_avg_1m: loadavg()[0] },
    seconds: seconds.map(r2), median_s: r2(mid),
    tables: JSON.parse([...digests][0]!) as Record<string, string>, match_rates: rates,
  };
  const root = resolve(import.meta.dirname, '..');
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(join(root, 'bench', 'results', `etl-match-${addresses}.json`), JSON.stringify(result, null, 2) + '\n');
  process.stdout.write(`${addresses} addresses, matching alone: median ${mid.toFixed(2)} s of ${runs} (${result.threads} thread${result.threads > 1 ? 's' : ''})\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
