import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { accuracy, indexRanker, loadTruth, plainTrigramRanker, relevanceQueries } from '../../support/search-relevance.ts';
import { searchIndexStage } from '../../../etl/stages/30-serving/10-search-index/stage.ts';
import { SearchIndex } from '../../../service/search/engine.ts';
import { quietLog, stagedContext } from '../../support/region.ts';

let ctx: BuildContext;
let index: SearchIndex;

beforeAll(async () => {
  ctx = await stagedContext(2000, 11);
  await searchIndexStage.run(ctx);
  index = SearchIndex.load(join(ctx.buildDir, 'search-index.bin'));
});

describe('searchIndexStage', () => {
  it('writes the index into the build and registers it as an artifact', async () => {
    expect(ctx.artifacts.search_index).toEqual({ file: 'search-index.bin', description: expect.any(String) });
    const path = join(ctx.buildDir, 'search-index.bin');
    expect(existsSync(path)).toBe(true);
    expect(statSync(path).size).toBeGreaterThan(0);
    const located = Number((await ctx.conn.runAndReadAll('SELECT count(*)::INT AS n FROM addresses WHERE lat IS NOT NULL AND postcode IS NOT NULL')).getRowObjectsJson()[0]!.n);
    expect(index.n).toBe(located);
  });

  it('fails clearly without an addresses table', async () => {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const conn = await (await DuckDBInstance.create(':memory:')).connect();
    await expect(searchIndexStage.run({ ...ctx, conn, log: quietLog, artifacts: {} })).rejects.toThrow(/addresses/);
  });
});

describe('relevance on the synthetic region', () => {
  it('finds the intended UPRN first for at least 90% and in the top 5 for at least 98% of 2,100 typed queries, ahead of plain pg_trgm', async () => {
    const truth = await loadTruth(ctx.conn);
    const set = relevanceQueries(truth, 2100);
    expect(new Set(set.map((q) => q.kind))).toEqual(new Set(['abbrev', 'no_postcode', 'typo', 'postcode_only', 'typeahead', 'word_order', 'flat']));
    const ours = accuracy(set, indexRanker(index));
    const plain = accuracy(set, plainTrigramRanker(truth));
    console.log(`relevance (${set.length} queries): index top1 ${ours.top1} top5 ${ours.top5}; plain pg_trgm top1 ${plain.top1} top5 ${plain.top5}`);
    console.log(JSON.stringify({ index: ours.byKind, plain: plain.byKind }));
    expect(ours.top1).toBeGreaterThanOrEqual(0.9);
    expect(ours.top5).toBeGreaterThanOrEqual(0.98);
    expect(ours.top1).toBeGreaterThan(plain.top1);
  });
});
