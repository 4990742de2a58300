/**
 * Typeahead judged as people type (issue 24). Each target home is typed character by
 * character (test/support/typeahead.ts: number, street, town or postcode; commas,
 * abbreviations, typos, flats), a query at every keystroke from the third, and the bench
 * records when the target is first and stays first, and when it is in the top 5 (the
 * dropdown), against an oracle that knows which homes are consistent with the text typed.
 *
 *   npx tsx bench/typeahead.ts --set real [--targets 2000] [--pg-targets 500]
 *   npx tsx bench/typeahead.ts --set synthetic --addresses 1000000 [--targets 2000] [--pg-targets 50]
 *
 * --set real indexes the distinct homes of the Price Paid samples and the linked EPC sample
 * in ../shared/data/raw; synthetic, the search bench's addresses (bench/sql/bench_addresses.sql,
 * calibrated names). --pg-targets K also types the first K targets through PostgreSQL 15
 * pg_trgm KNN (GiST) on the same addresses, alternating with ours keystroke by keystroke
 * (0: not run); --pg-siglen B gives its GiST index B-byte signatures (default pg_trgm's 12).
 * Writes bench/results/typeahead-<set>[-N].json.
 */
import { DuckDBInstance, listValue } from '@duckdb/node-api';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSearchIndex } from '../etl/stages/30-serving/10-search-index/build.ts';
import { STREET_STEMS, STREET_TYPES } from '../etl/synth/names.ts';
import { SearchIndex } from '../service/search/engine.ts';
import { indexRows, realHomes } from '../test/support/real-homes.ts';
import {
  ConsistencyOracle, FIRST_KEYSTROKE, keystrokeFigures, oracleMrr, oracleTyped, typingScripts, type Home, type Script, type Typed,
} from '../test/support/typeahead.ts';
import { startPgTrgm, type PgTrgm } from './support/pg-trgm.ts';
import { arg, argStr, mb, r2, summary } from './support/stats.ts';

const LIST = 10;
const log = (m: string) => process.stderr.write(`[typeahead] ${m}\n`);
const sql = (name: string) => readFileSync(join(import.meta.dirname, 'sql', `${name}.sql`), 'utf8');

/** The search bench's synthetic addresses with their parts, made in DuckDB (calibrated street names). */
async function syntheticHomes(n: number): Promise<Home[]> {
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  const conn = await db.connect();
  const syllables = ['ASH', 'BRAD', 'CAR', 'DAL', 'ELM', 'FAR', 'GLEN', 'HAL', 'IVY', 'KEN', 'LAN', 'MAR', 'NEW', 'OAK', 'PEN', 'RAD', 'SAL', 'THORN', 'UP', 'WAL', 'WEST', 'YAR', 'BUR', 'CROM', 'DUN', 'FEN', 'HOL', 'LYN', 'MOS', 'STAN'];
  await conn.run(sql('bench_addresses'), {
    n, stems: listValue(STREET_STEMS), types: listValue(STREET_TYPES.map(([long]) => long)), syllables: listValue(syllables), calibrated: true, names: 10_000,
  });
  const homes: Home[] = [];
  const reader = await conn.streamAndReadUntil('SELECT uprn, address, postcode, sub_building, building_number, street_name, town_name FROM addresses', Number.MAX_SAFE_INTEGER);
  for (const r of reader.getRowObjectsJson()) {
    homes.push({
      uprn: Number(r.uprn), address: String(r.address), postcode: String(r.postcode), saon: (r.sub_building as string | null) ?? null,
      paon: String(r.building_number), street: String(r.street_name), locality: null, town: String(r.town_name),
    });
  }
  conn.closeSync();
  db.closeSync();
  return homes;
}

interface Engine { name: string; ms: number[]; typed: Typed[] }

async function main(): Promise<void> {
  const set = argStr('set', 'real');
  const N = arg('addresses', 1_000_000);
  const targets = arg('targets', 2_000);
  const pgTargets = arg('pg-targets', 0);
  const pgSiglen = arg('pg-siglen', 0);
  let t = performance.now();
  const homes = set === 'real' ? await realHomes() : await syntheticHomes(N);
  log(`${homes.length} ${set} homes in ${Math.round(performance.now() - t)} ms`);

  t = performance.now();
  const rows = indexRows(homes);
  const index = new SearchIndex(await buildSearchIndex(rows, rows.length));
  const indexMs = performance.now() - t;
  log(`index built and loaded in ${Math.round(indexMs)} ms (${index.vocabularySize} words)`);
  t = performance.now();
  const oracle = new ConsistencyOracle(homes);
  log(`oracle in ${Math.round(performance.now() - t)} ms`);

  const scripts = typingScripts(homes, targets);
  const byUprn = new Map(homes.map((h, i) => [h.uprn, i]));
  // Self-check: the meant text is consistent with its own target at every keystroke.
  for (const s of scripts.slice(0, 200)) {
    for (let k = FIRST_KEYSTROKE; k <= s.meant.length; k++) {
      if (!oracle.consistent(byUprn.get(s.uprn)!, s.meant.slice(0, k))) throw new Error(`oracle: target ${s.uprn} inconsistent with "${s.meant.slice(0, k)}"`);
    }
  }

  let pgdb: (PgTrgm & { loadMs: number; indexMs: number }) | undefined;
  if (pgTargets > 0) pgdb = await startPgTrgm(rows, log, pgSiglen > 0 ? { siglen: pgSiglen } : {});
  try {
    const ours: Engine = { name: 'ours', ms: [], typed: [] };
    const pgE: Engine = { name: 'pg_trgm_knn_gist', ms: [], typed: [] };
    const oursOnPg: Typed[] = [];
    t = performance.now();
    for (const [si, s] of scripts.entries()) {
      const withPg = pgdb !== undefined && si < pgTargets;
      const mine: Typed = { uprn: s.uprn, rank: [], emptyWhileConsistent: 0 };
      const theirs: Typed = { uprn: s.uprn, rank: [], emptyWhileConsistent: 0 };
      for (let k = FIRST_KEYSTROKE; k <= s.typed.length; k++) {
        const q = s.typed.slice(0, k);
        // Alternating, keystroke by keystroke: ours, then pg_trgm on the same text.
        const t0 = performance.now();
        const got = index.search(q, LIST).map((m) => m.uprn);
        ours.ms.push(performance.now() - t0);
        mine.rank.push(got.indexOf(s.uprn));
        if (got.length === 0 && oracle.count(q, 1) > 0) mine.emptyWhileConsistent++;
        if (withPg) {
          const t1 = performance.now();
          const pgGot = await pgdb!.knn(q, LIST);
          pgE.ms.push(performance.now() - t1);
          theirs.rank.push(pgGot.indexOf(s.uprn));
          if (pgGot.length === 0 && oracle.count(q, 1) > 0) theirs.emptyWhileConsistent++;
        }
      }
      ours.typed.push(mine);
      if (withPg) (pgE.typed.push(theirs), oursOnPg.push(mine));
      if (si % 200 === 199) log(`${si + 1} targets typed, ${Math.round((performance.now() - t) / 1000)} s`);
    }
    const oracleAll = oracleTyped(scripts, oracle);
    const ceiling = (ss: Script[], typed: Typed[]) => ({ ...keystrokeFigures(typed), mrr: oracleMrr(ss, oracle) });
    const misses = missesOf(scripts, ours.typed, index);
    const result = {
      bench: 'typeahead', set, at: new Date().toISOString(), homes: homes.length, node: process.version,
      command: process.argv.slice(2).join(' '),
      index: { build_and_load_ms: Math.round(indexMs), words: index.vocabularySize },
      scripts: { targets: scripts.length, by_kind: countBy(scripts.map((s) => s.kind)), list_length: LIST, first_keystroke: FIRST_KEYSTROKE },
      all_targets: { ours: { ...keystrokeFigures(ours.typed), latency: summary(ours.ms) }, oracle: ceiling(scripts, oracleAll) },
      ...(pgdb
        ? {
          side_by_side: {
            targets: pgE.typed.length,
            ours: { ...keystrokeFigures(oursOnPg), latency: summary(ours.ms.slice(0, pgE.ms.length)) },
            pg_trgm_knn_gist: { ...keystrokeFigures(pgE.typed), latency: summary(pgE.ms) },
            oracle: ceiling(scripts.slice(0, pgE.typed.length), oracleAll.slice(0, pgE.typed.length)),
            p50_speedup: r2(summary(pgE.ms).p50_ms / summary(ours.ms.slice(0, pgE.ms.length)).p50_ms),
            pg: { gist_siglen: pgSiglen > 0 ? pgSiglen : 12, load_ms: Math.round(pgdb.loadMs), index_ms: Math.round(pgdb.indexMs), ...Object.fromEntries(Object.entries(await pgdb.sizes()).map(([k, v]) => [`${k}_mb`, mb(v)])) },
          },
        }
        : {}),
      worst_targets: misses,
    };
    mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
    const out = join(import.meta.dirname, 'results', `typeahead-${set}${set === 'real' ? '' : `-${N}`}.json`);
    writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
    log(`wrote ${out}`);
    process.stdout.write(JSON.stringify({ all_targets: result.all_targets, side_by_side: (result as { side_by_side?: unknown }).side_by_side }, null, 2) + '\n');
  } finally {
    await pgdb?.stop();
  }
}

const countBy = (xs: string[]) => xs.reduce<Record<string, number>>((a, x) => ((a[x] = (a[x] ?? 0) + 1), a), {});

/**
 * The targets that were first and then fell out of the top 5 while still being typed, or
 * are not first at the end: the text at the keystroke they were lost and what came first
 * instead (at most 25), so a regression says what it is.
 */
function missesOf(scripts: Script[], typed: Typed[], index: SearchIndex) {
  const out: { typed: string; lost_at: string; target_rank: number; first: string | undefined }[] = [];
  scripts.forEach((s, i) => {
    const r = typed[i]!.rank;
    const first = r.indexOf(0);
    let lost = first < 0 ? -1 : r.findIndex((x, j) => j > first && (x < 0 || x >= 5));
    if (lost < 0 && r[r.length - 1] !== 0) lost = r.length - 1;
    if (lost < 0 || out.length >= 25) return;
    const q = s.typed.slice(0, FIRST_KEYSTROKE + lost);
    out.push({ typed: s.typed, lost_at: q, target_rank: r[lost]!, first: index.search(q, 1)[0]?.address });
  });
  return out;
}

await main();
