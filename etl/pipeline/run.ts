import { DuckDBInstance } from '@duckdb/node-api';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Manifest } from '../../schemas/manifest.ts';
import { beginBuild, currentBuildId, promoteBuild, pruneBuilds, readManifest, writeManifest } from '../publish/publish.ts';
import { buildDir } from '../publish/layout.ts';
import { planSources, type BuildContext, type EtlLogger } from './context.ts';
import { discoverSources } from './discover.ts';
import { queryRows } from './sql.ts';
import { STAGES } from './stages.ts';
import { StageOutputCache } from './stage-output-cache.ts';
import { runStages } from './run-stages.ts';
import { type PreviousBuild, writeTables } from './write-tables.ts';
import { checkBuildTables } from '../../lib/tables/check.ts';
import { ruleViolationsSql } from '../../schemas/tables/contract.ts';
import { PUBLISHED_TABLES } from '../../schemas/tables/index.ts';
import { allocatorInUse } from './allocator.ts';
import { sourceAsOfs } from './source-as-of.ts';

export interface RunOptions {
  dataDir: string;
  sourcesDir: string;
  now?: Date;
  log: EtlLogger;
  /** Called as rows are read (stage label, rows so far); the CLI draws progress from it. */
  progress?: (stage: string, done: number, total?: number) => void;
  /** A table may shrink to this share of its row count in the previous build; default 0.5. */
  minShareOfPrevious?: number;
  /** Complete builds kept, the current one included; default 3. */
  keep?: number;
  /** False: ignore the caches under DATA_DIR/cache/ (re-stage, re-match and recompute everything), still refreshing them; default true. */
  cache?: boolean;
  /**
   * False: keep no caches at all (none read, none written, no table linked from the previous
   * build), for a one-off build where the disk is tight: at 1M addresses DATA_DIR/cache/ holds
   * 0.9 GB beside a 1.3 GB build. The next build then runs in full. Default: ETL_CACHES=off
   * in the environment makes it false, else true.
   */
  caches?: boolean;
}

export class BuildValidationError extends Error {
  constructor(readonly failures: string[]) {
    super(`build failed validation:\n- ${failures.join('\n- ')}`);
  }
}

/**
 * Runs one build: discovers the sources, runs every stage in order into a `.partial`
 * folder, writes each published table as Parquet (its contract's columns, in order, sorted by
 * its key; a table unchanged since the current build links that build's file), writes the manifest, validates (the files against the contracts in
 * schemas/tables/, their row rules, counts against the previous build), and only then switches
 * `current`. Any failure leaves `current` where it was and removes the partial folder (a
 * killed run's folder is removed by the next run's prune). Callers hold the ETL lock
 * (`withBuildLock`): the prune at the start would otherwise delete a concurrent build.
 */
export async function runBuild(opts: RunOptions): Promise<{ build_id: string; manifest: Manifest }> {
  const now = opts.now ?? new Date();
  const log = opts.log;
  await pruneBuilds(opts.dataDir, opts.keep ?? 3);
  const { id, dir } = await beginBuild(opts.dataDir, now);
  const allocator = allocatorInUse();
  log.info({ build_id: id, sources: opts.sourcesDir, allocator }, 'build started');
  if (allocator === 'system') log.warn({ build_id: id }, "running on the system's malloc, not jemalloc: the peak memory can be 1.5 GB higher at 10M addresses (docs/etl.md, Memory; install libjemalloc2 and run through npm run etl)");
  const db = await openBuildDatabase(dir);
  const conn = await db.connect();
  try {
    const { files, ignored } = await discoverSources(opts.sourcesDir, planSources(STAGES));
    const ctx: BuildContext = {
      db, conn, sourcesDir: opts.sourcesDir, buildDir: dir, buildId: id, now, today: now.toISOString().slice(0, 10),
      files, ignored, sources: [], published: [...PUBLISHED_TABLES], artifacts: {}, matchRates: {}, quality: {}, log,
      progress: opts.progress ?? (() => undefined),
      ...(opts.caches ?? etlCaches() ? { cache: { dir: join(opts.dataDir, 'cache'), read: opts.cache !== false } } : {}),
    };
    const timings: Record<string, number> = {};
    const outputs = await StageOutputCache.open(ctx);
    await runStages(ctx, STAGES, outputs, timings);
    if (outputs) ctx.quality.stage_output_cache = await outputs.finish();
    const t0 = performance.now();
    const previous = await currentBuild(opts.dataDir);
    // An unchanged table's file is the current build's, linked (write-tables.ts); --no-cache writes every one.
    const { tables, stats } = await writeTables(ctx, opts.cache === false || !ctx.cache ? undefined : previous, outputs);
    await outputs?.saveContentHashes();
    ctx.quality.table_files = stats;
    timings.write_tables = Math.round(performance.now() - t0);
    const artifacts: Manifest['artifacts'] = {};
    for (const [name, a] of Object.entries(ctx.artifacts)) {
      artifacts[name] = { ...a, bytes: (await stat(join(dir, a.file))).size };
    }
    const manifest: Manifest = {
      build_id: id, created_at: now.toISOString(), schema_version: 1, sources: ctx.sources, source_as_of: sourceAsOfs(ctx.sources), tables, artifacts,
      match_rates: ctx.matchRates, stage_timings_ms: timings,
      quality: { ...ctx.quality, ignored_files: ignored, runtime: { allocator } },
    };
    await validate(ctx, manifest, opts, previous);
    conn.closeSync();
    db.closeSync();
    await removeBuildDatabase(dir);
    await writeManifest(dir, manifest);
    await promoteBuild(opts.dataDir, id);
    await pruneBuilds(opts.dataDir, opts.keep ?? 3);
    log.info({ build_id: id, tables: Object.fromEntries(Object.entries(tables).map(([k, v]) => [k, v.rows])) }, 'build published');
    return { build_id: id, manifest };
  } catch (e) {
    // Closing twice is harmless; the database's files go with the folder.
    conn.closeSync();
    db.closeSync();
    // A failed build leaves nothing behind (a crash is cleaned up by the next run's prune).
    await rm(dir, { recursive: true, force: true });
    log.error({ build_id: id, err: (e as Error).message }, 'build failed; current unchanged');
    throw e;
  }
}

/** The build `current` points at, with its manifest; undefined when there is none or it does not read. */
async function currentBuild(dataDir: string): Promise<PreviousBuild | undefined> {
  const id = await currentBuildId(dataDir);
  if (!id) return undefined;
  const dir = buildDir(dataDir, id);
  const manifest = await readManifest(dir).catch(() => undefined);
  return manifest && { id, dir, manifest };
}

/**
 * A build's database: a file in the build folder (`.work.duckdb`), spilling sorts and joins
 * into `.spill` beside it; both are removed before the build is published. Bounded: past the
 * limit DuckDB evicts table blocks (docs/etl.md, "Memory"). A file, not `:memory:`, because an
 * evicted block of a stored table is written once, compressed, where an in-memory database's
 * goes to the spill uncompressed and stays there: at 1M addresses the folder peaked at 1.8 GB
 * instead of 3.9 for a 1.15 GB build (bench/etl.ts, disk_peak_mb_by_stage). Insertion order
 * kept (DuckDB's default, stated because staging relies on it: the staging cache's COPY writes
 * a file's rows in table order without a sort).
 */
export async function openBuildDatabase(dir: string): Promise<DuckDBInstance> {
  return DuckDBInstance.create(join(dir, BUILD_DATABASE), { threads: '2', temp_directory: join(dir, '.spill'), memory_limit: etlMemoryLimit(), preserve_insertion_order: 'true' });
}

const BUILD_DATABASE = '.work.duckdb';

/** Removes a closed build database's file, its write-ahead log and its spill from `dir`. */
async function removeBuildDatabase(dir: string): Promise<void> {
  for (const f of [BUILD_DATABASE, `${BUILD_DATABASE}.wal`, '.spill']) await rm(join(dir, f), { recursive: true, force: true });
}

/** Whether builds keep their caches (RunOptions.caches): not when ETL_CACHES=off. */
export function etlCaches(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.ETL_CACHES !== 'off';
}

/** DuckDB's memory limit for a build: ETL_MEMORY_LIMIT (a DuckDB size such as `1GB`, `512MB`), else 1GB. */
export function etlMemoryLimit(env: NodeJS.ProcessEnv = process.env): string {
  const v = env.ETL_MEMORY_LIMIT?.trim();
  if (!v) return '1GB';
  if (!/^\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KIB|MIB|GIB|TIB)$/i.test(v)) throw new Error(`ETL_MEMORY_LIMIT: not a size like 1GB or 512MB: ${v}`);
  return v;
}

/** `previous`: the current build, whose table sizes this one may not fall far below. */
async function validate(ctx: BuildContext, manifest: Manifest, opts: RunOptions, previous: PreviousBuild | undefined): Promise<void> {
  // The written files against their contracts (the same check the service makes on opening a build).
  const failures = await checkBuildTables(ctx.buildDir, ctx.published);
  let rules = 0;
  for (const t of ctx.published) {
    for (const rule of t.rules ?? []) {
      rules++;
      const [row] = await queryRows(ctx.conn, `SELECT (${ruleViolationsSql(t.name, rule)})::BIGINT AS n`);
      const n = Number(row?.n ?? 0);
      if (n > 0) failures.push(`${t.name}: ${rule.rule} (${n} rows break it)`);
    }
  }
  if (previous) {
    const share = opts.minShareOfPrevious ?? 0.5;
    for (const [name, t] of Object.entries(previous.manifest.tables)) {
      const now = manifest.tables[name]?.rows ?? 0;
      if (t.rows > 0 && now < t.rows * share) failures.push(`${name}: ${now} rows, under ${share * 100}% of the ${t.rows} in build ${previous.id}`);
    }
  }
  const addressRows = ctx.sources.filter((s) => s.name === 'addressbase').reduce((n, s) => n + s.rows_read, 0);
  if (addressRows > 0 && (manifest.tables.properties?.rows ?? 0) === 0) failures.push('properties: empty although the address base has rows');
  ctx.quality.validation = { contracts_checked: rules, failures: failures.length };
  if (failures.length > 0) throw new BuildValidationError(failures);
}
