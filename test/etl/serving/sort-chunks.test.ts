import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { postcodeCuts, writeSearchIndexFile } from '../../../etl/stages/30-serving/10-search-index/stage.ts';
import { uprnCuts, writePropertyRecords } from '../../../etl/stages/30-serving/20-property-records/stage.ts';
import { cutsFromCounts, keyRanges, sortChunks } from '../../../etl/stages/30-serving/sort-chunks.ts';
import { PROPERTY_RECORDS_FILE } from '../../../lib/files/record-file-format.ts';
import { PROPERTY_RECORDS_PAGED_FILE } from '../../../lib/files/paged-record-file.ts';
import { SEARCH_INDEX_FILE } from '../../../lib/files/search-index-format.ts';
import { quietLog, stagedContext } from '../../support/region.ts';
import { tempDir } from '../../support/tmp.ts';

/**
 * The serving stages read their rows in key ranges when one sort of them would outgrow
 * DuckDB's memory limit (docs/etl.md, "Memory"). Read in any number of ranges, each file
 * must be the same bytes as read in one query.
 */
const tmp = tempDir();
afterAll(tmp.cleanup);

let ctx: BuildContext;
beforeAll(async () => {
  ctx = await stagedContext(2000, 11); // every stage run: the tables the serving stages read
}, 180_000);

/** The file `write` writes into a folder of its own, as bytes. */
async function written(write: (c: BuildContext) => Promise<void>, file: string, name: string): Promise<Buffer> {
  const dir = join(tmp.dir, name);
  mkdirSync(dir);
  await write({ ...ctx, buildDir: dir, artifacts: {}, log: quietLog });
  return readFileSync(join(dir, file));
}

describe('serving files read in key ranges', () => {
  it('search-index.bin is the same bytes in 1, 2, 3 and 7 postcode ranges', async () => {
    const n = Number((await ctx.conn.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM addresses
      WHERE lat IS NOT NULL AND lng IS NOT NULL AND postcode IS NOT NULL AND address IS NOT NULL`)).getRowObjectsJson()[0]!.n);
    expect(n).toBeGreaterThan(1500);
    const whole = await written((c) => writeSearchIndexFile(c, n, []), SEARCH_INDEX_FILE, 'search-1');
    for (const chunks of [2, 3, 7]) {
      const cuts = await postcodeCuts(ctx, n, chunks);
      expect(cuts).toHaveLength(chunks - 1); // 2,000 addresses over many postcodes: every range has rows
      const cut = await written((c) => writeSearchIndexFile(c, n, cuts), SEARCH_INDEX_FILE, `search-${chunks}`);
      expect(cut.equals(whole), `${chunks} ranges`).toBe(true);
    }
  });

  it('search-index.bin is the same bytes with 64-byte spill buffers and 1 KiB postings passes, and the build folder keeps no spill folder', async () => {
    const n = Number((await ctx.conn.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM addresses
      WHERE lat IS NOT NULL AND lng IS NOT NULL AND postcode IS NOT NULL AND address IS NOT NULL`)).getRowObjectsJson()[0]!.n);
    const cuts = await postcodeCuts(ctx, n, 3);
    const spilled = await written((c) => writeSearchIndexFile(c, n, cuts, { bufferBytes: 64, postingsPassBytes: 1024 }), SEARCH_INDEX_FILE, 'search-spilled');
    expect(spilled.equals(readFileSync(join(ctx.buildDir, SEARCH_INDEX_FILE)))).toBe(true);
    expect(readdirSync(join(tmp.dir, 'search-spilled'))).toEqual([SEARCH_INDEX_FILE]);
  });

  it('property-records.bin is the same bytes in 1, 2, 3 and 7 UPRN ranges, cut between UPRNs or at them', async () => {
    const uprns = (await ctx.conn.runAndReadAll(`SELECT uprn FROM properties ORDER BY uprn`)).getRowObjectsJson().map((r) => BigInt(String(r.uprn)));
    const n = uprns.length;
    const whole = await written((c) => writePropertyRecords(c, n, []), PROPERTY_RECORDS_FILE, 'records-1');
    // The stage's own file (written by the full build in the context) is the one-query read too.
    expect(whole.equals(readFileSync(join(ctx.buildDir, PROPERTY_RECORDS_FILE)))).toBe(true);
    for (const chunks of [2, 3, 7]) {
      // The stage's approximate quantiles, and cuts that are UPRNs of the table (each must go to one range only).
      const approx = await uprnCuts(ctx, chunks);
      expect(approx).toHaveLength(chunks - 1);
      const exact = Array.from({ length: chunks - 1 }, (_, i) => uprns[Math.floor(((i + 1) * n) / chunks)]!);
      for (const [kind, cuts] of [['approximate', approx], ['exact', exact]] as const) {
        const cut = await written((c) => writePropertyRecords(c, n, cuts), PROPERTY_RECORDS_FILE, `records-${chunks}-${kind}`);
        expect(cut.equals(whole), `${chunks} ranges, ${kind} cuts`).toBe(true);
      }
    }
  });

  it('property-records.bin is the same bytes with 64-byte spill buffers, and the build folder keeps no spill folder', async () => {
    const n = Number((await ctx.conn.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM properties`)).getRowObjectsJson()[0]!.n);
    const cuts = await uprnCuts(ctx, 3);
    const spilled = await written((c) => writePropertyRecords(c, n, cuts, { bufferBytes: 64 }), PROPERTY_RECORDS_FILE, 'records-spilled');
    expect(spilled.equals(readFileSync(join(ctx.buildDir, PROPERTY_RECORDS_FILE)))).toBe(true);
    expect(readdirSync(join(tmp.dir, 'records-spilled')).sort()).toEqual([PROPERTY_RECORDS_FILE, PROPERTY_RECORDS_PAGED_FILE]);
    // The paged file, written from the same ranges, is the same bytes as the one-query build's.
    expect(readFileSync(join(tmp.dir, 'records-spilled', PROPERTY_RECORDS_PAGED_FILE)).equals(readFileSync(join(ctx.buildDir, PROPERTY_RECORDS_PAGED_FILE)))).toBe(true);
  });

  it('a property without a UPRN reaches the writer (and is refused) in ranges as in one query', async () => {
    await ctx.conn.run(`CREATE TABLE properties_all AS FROM properties`);
    await ctx.conn.run(`INSERT INTO properties SELECT * REPLACE (NULL AS uprn) FROM properties LIMIT 1`);
    try {
      const n = Number((await ctx.conn.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM properties`)).getRowObjectsJson()[0]!.n);
      const cuts = await uprnCuts(ctx, 3);
      for (const [kind, c] of [['one', []], ['three', cuts]] as const) {
        // With buffers small enough to have spilled before the refused row: the spill folder goes too.
        await expect(written((x) => writePropertyRecords(x, n, c, { bufferBytes: 64 }), PROPERTY_RECORDS_FILE, `records-null-${kind}`)).rejects.toThrow(/sorted by distinct uprn/);
        expect(readdirSync(join(tmp.dir, `records-null-${kind}`))).toEqual([]);
      }
    } finally {
      await ctx.conn.run(`CREATE OR REPLACE TABLE properties AS FROM properties_all`);
      await ctx.conn.run(`DROP TABLE properties_all`);
    }
  });
});

describe('sortChunks', () => {
  it('is one range while the sort takes under a third of the limit', () => {
    // 1M rows × 300 B = 300 MB, under a third of 1 GB.
    expect(sortChunks(1_000_000, 300, 1e9)).toBe(1);
    expect(sortChunks(0, 300, 1e9)).toBe(1);
  });
  it('cuts the sort into pieces of at most a third of the limit', () => {
    // 300 MB in pieces of 66.7 MB (a third of 200 MB): 4.5, so 5; 10M rows × 140 B under 1 GB: 4.2, so 5.
    expect(sortChunks(1_000_000, 300, 200e6)).toBe(5);
    expect(sortChunks(10_000_000, 140, 1e9)).toBe(5);
  });
});

describe('keyRanges', () => {
  it('covers every key once, open at both ends', () => {
    expect(keyRanges([])).toEqual([{ lo: null, hi: null }]);
    expect(keyRanges(['B', 'D'])).toEqual([{ lo: null, hi: 'B' }, { lo: 'B', hi: 'D' }, { lo: 'D', hi: null }]);
  });
});

describe('cutsFromCounts', () => {
  async function* of(pairs: [string, number][]): AsyncGenerator<[string, number]> {
    yield* pairs;
  }
  it('starts a range at the key where the rows before it reach each share', async () => {
    // 12 rows in 3: a range starts once 4, then 8, rows lie before the key.
    expect(await cutsFromCounts(of([['A', 2], ['B', 2], ['C', 3], ['D', 1], ['E', 4]]), 12, 3)).toEqual(['C', 'E']);
  });
  it('keeps a key whole and never makes more than chunks - 1 cuts', async () => {
    // B's 10 rows stay in one range: fewer ranges than asked for, not a key split.
    expect(await cutsFromCounts(of([['A', 1], ['B', 10], ['C', 1]]), 12, 4)).toEqual(['C']);
    expect(await cutsFromCounts(of([['A', 1], ['B', 1], ['C', 1], ['D', 1]]), 4, 2)).toEqual(['C']);
  });
});
