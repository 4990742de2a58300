import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDesignations, type DesignationIndex } from '../../service/records/designations.ts';
import { tempDir } from '../support/tmp.ts';

const { dir, cleanup } = tempDir('pi-designations-');
let index: DesignationIndex;

beforeAll(async () => {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  // Written out of order: the loader sorts by uprn, then dataset and entity.
  await c.run(`COPY (SELECT * FROM (VALUES
      (30::BIGINT, 'flood-risk-zone', 2::BIGINT, 'fz3', 'Zone 3', 3),
      (10, 'conservation-area', 7, 'CA7', 'Old Town', NULL),
      (30, 'conservation-area', 7, 'CA7', 'Old Town', NULL),
      (30, 'flood-risk-zone', 1, 'fz2', 'Zone 2', 2),
      (20, 'green-belt', NULL, NULL, NULL, NULL),
      (999999999999, 'article-4-direction-area', 9, 'A4', 'HMO direction', NULL)
    ) t(uprn, dataset, entity, reference, name, flood_risk_level))
    TO '${join(dir, 'uprn_designations.parquet')}' (FORMAT parquet)`);
  c.closeSync();
  db.closeSync();
  index = (await loadDesignations(dir))!;
});
afterAll(() => cleanup());

describe('DesignationIndex', () => {
  it('finds every feature of a UPRN in dataset then entity order, none for a UPRN without any', () => {
    expect(index.rows).toBe(6);
    expect(index.get(30)).toEqual([
      { dataset: 'conservation-area', entity: 7, reference: 'CA7', name: 'Old Town', flood_risk_level: null },
      { dataset: 'flood-risk-zone', entity: 1, reference: 'fz2', name: 'Zone 2', flood_risk_level: 2 },
      { dataset: 'flood-risk-zone', entity: 2, reference: 'fz3', name: 'Zone 3', flood_risk_level: 3 },
    ]);
    expect(index.get(20)).toEqual([{ dataset: 'green-belt', entity: null, reference: null, name: null, flood_risk_level: null }]);
    expect(index.get(999999999999)).toHaveLength(1); // 12-digit UPRNs are exact in a double
    for (const none of [0, 11, 25, 31, 1e13]) expect(index.get(none)).toEqual([]);
  });

  it('holds each distinct feature once (UPRNs in the same area share it)', () => {
    expect(index.get(10)[0]).toBe(index.get(30)[0]);
  });

  it('is undefined for a build without the table', async () => {
    expect(await loadDesignations(join(dir, 'nowhere'))).toBeUndefined();
  });
});
