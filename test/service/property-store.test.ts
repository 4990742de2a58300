import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryName } from '../../service/store/queries.ts';
import { BuildStore } from '../../service/store/store.ts';
import { publishFromContext } from '../etl/search/fixture-build.ts';
import { stagedContext } from '../support/region.ts';
import { tempDir } from '../support/tmp.ts';

let store: BuildStore;
let uprns: string[];
const tmp = tempDir('pi-store-');

beforeAll(async () => {
  const ctx = await stagedContext(2000, 11);
  const dir = await publishFromContext(ctx, tmp.dir, '20251001T000000Z-dddddd');
  uprns = (await ctx.conn.runAndReadAll('SELECT uprn::VARCHAR AS u FROM properties ORDER BY uprn LIMIT 400')).getRowObjectsJson().map((r) => String(r.u));
  store = await BuildStore.open(dir, 2);
});
afterAll(() => {
  store.close();
  tmp.cleanup();
});

describe('BuildStore', () => {
  it('exposes each Parquet table of the build', () => {
    expect([...store.tables].sort()).toEqual(['addresses', 'properties']);
  });

  it('many concurrent lookups on few connections each get their own row (statements are never shared mid-run)', async () => {
    const rows = await Promise.all(uprns.map((u) => store.rows('property_by_uprn', [BigInt(u)])));
    expect(rows.map((r) => r[0]?.uprn)).toEqual(uprns);
  });

  it('an unknown statement name or a malformed one is refused', async () => {
    // Names outside the declarations (queries.ts) do not type-check; at run time they fail before any SQL runs.
    await expect(store.rows('no_such_statement' as QueryName)).rejects.toThrow(/ENOENT/);
    await expect(store.rows('../etc' as QueryName)).rejects.toThrow(/bad SQL file name/);
    // The connection went back to the pool: lookups still run.
    expect((await store.rows('property_by_uprn', [BigInt(uprns[0]!)])).length).toBe(1);
  });
});
