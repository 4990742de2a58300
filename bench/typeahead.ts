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
 * (0: not run); --pg-siglen B gives its GiST index B-byte signatures (default pg_trgm's 12);
 * --pg-completed M also sends the completed query of the first M targets to both engines
 * (top 1 and MRR there, over many more targets than typing through pg_trgm allows), and
 * counts the targets tied at the top with another home (equal score: nothing typed tells
 * them apart, so which comes first is a coin toss for any engine).
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
  ConsistencyOracle, FIRST_KEYSTROKE, keystrokeFigures, keystrokesTo, oracleMrr, oracleTyped, typingScripts, type Home, type Script, type Typed,
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
  const pgCompleted = arg('pg-completed', 0);
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
  if (pgTargets > 0 || pgCompleted > 0) pgdb = await startPgTrgm(rows, log, pgSiglen > 0 ? { siglen: pgSiglen } : {});
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
    const completed = pgdb && pgCompleted > 0 ? await completedQueries(scripts.slice(0, pgCompleted), index, pgdb) : undefined;
    const oracleAll = oracleTyped(scripts, oracle);
    const ceiling = (ss: Script[], typed: Typed[]) => ({ ...keystrokeFigures(typed), mrr: oracleMrr(ss, oracle) });
    const misses = missesOf(scripts, ours.typed, index);
    const result = {
      bench: 'typeahead', set, at: new Date().toISOString(), homes: homes.length, node: process.version,
      command: process.argv.slice(2).join(' '),
      index: { build_and_load_ms: Math.round(indexMs), words: index.vocabularySize },
      scripts: { targets: scripts.length, by_kind: countBy(scripts.map((s) => s.kind)), list_length: LIST, first_keystroke: FIRST_KEYSTROKE },
      all_targets: { ours: { ...keystrokeFigures(ours.typed), latency: summary(ours.ms) }, oracle: ceiling(scripts, oracleAll) },
      ...(completed ? { completed_queries: completed } : {}),
      ...(pgdb && pgE.typed.length > 0
        ? {
          side_by_side: {
            targets: pgE.typed.length,
            ours: { ...keystrokeFigures(oursOnPg), latency: summary(ours.ms.slice(0, pgE.ms.length)) },
            pg_trgm_knn_gist: { ...keystrokeFigures(pgE.typed), latency: summary(pgE.ms) },
            oracle: ceiling(scripts.slice(0, pgE.typed.length), oracleAll.slice(0, pgE.typed.length)),
            per_target: perTarget(scripts, oursOnPg, pgE.typed),
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
    process.stdout.write(JSON.stringify({ all_targets: result.all_targets, completed_queries: completed, side_by_side: (result as { side_by_side?: unknown }).side_by_side }, null, 2) + '\n');
  } finally {
    await pgdb?.stop();
  }
}

/**
 * Each target's completed query through both engines, alternating: the share with the target
 * first, MRR, and the targets tied at the top in our scores (another home scored the same:
 * the text cannot tell them apart) with how each engine placed them.
 */
async function completedQueries(scripts: Script[], index: SearchIndex, pg: PgTrgm) {
  let oursFirst = 0, pgFirst = 0, oursRr = 0, pgRr = 0, tied = 0, tiedOursFirst = 0, tiedPgFirst = 0;
  const pgOnly: string[] = [];
  for (const s of scripts) {
    const got = index.search(s.typed, LIST);
    const r = got.findIndex((m) => m.uprn === s.uprn);
    const pr = (await pg.knn(s.typed, LIST)).indexOf(s.uprn);
    const isTied = r >= 0 && got.filter((m) => m.score === got[0]!.score).length > 1 && got[r]!.score === got[0]!.score;
    if (r === 0) oursFirst++;
    if (pr === 0) pgFirst++;
    if (r >= 0) oursRr += 1 / (r + 1);
    if (pr >= 0) pgRr += 1 / (pr + 1);
    if (isTied) (tied++, r === 0 && tiedOursFirst++, pr === 0 && tiedPgFirst++);
    if (pr === 0 && r !== 0 && !isTied && pgOnly.length < 25) pgOnly.push(`${s.typed} (ours: rank ${r + 1}, first ${got[0]?.address})`);
  }
  const n = scripts.length;
  return {
    targets: n,
    ours: { top1: r4(oursFirst / n), mrr: r4(oursRr / n) },
    pg_trgm_knn_gist: { top1: r4(pgFirst / n), mrr: r4(pgRr / n) },
    tied_at_top: { targets: tied, ours_first: tiedOursFirst, pg_first: tiedPgFirst },
    pg_first_ours_not_untied: pgOnly,
  };
}

/** Target by target on the typed keystrokes: which engine made it first (and top 5) to stay sooner, and the texts where pg_trgm was sooner to the top 1. */
function perTarget(scripts: Script[], ours: Typed[], pg: Typed[]) {
  const cmp = (k: number) => {
    let oursSooner = 0, pgSooner = 0, same = 0;
    ours.forEach((t, i) => {
      const a = keystrokesTo(t.rank, k), b = keystrokesTo(pg[i]!.rank, k);
      if (a < b) oursSooner++; else if (b < a) pgSooner++; else same++;
    });
    return { ours_sooner: oursSooner, pg_sooner: pgSooner, same };
  };
  const pgSoonerTop1 = ours.flatMap((t, i) => {
    const a = keystrokesTo(t.rank, 1), b = keystrokesTo(pg[i]!.rank, 1);
    return b < a ? [`${scripts[i]!.typed}: ours ${a}, pg ${b}`] : [];
  });
  return { top1: cmp(1), top5: cmp(5), pg_sooner_to_top1: pgSoonerTop1.slice(0, 40) };
}

const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

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
