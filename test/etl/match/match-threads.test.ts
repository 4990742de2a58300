import { describe, expect, it } from 'vitest';
import type { KeyKind } from '../../../etl/stages/20-merged/20-match-addresses/keys.ts';
import type { MatchJob } from '../../../etl/stages/20-merged/20-match-addresses/match-job.ts';
import { inThread, matchThreads, workerThreads } from '../../../etl/stages/20-merged/20-match-addresses/match-threads.ts';

const address = (g: number, uprn: number, postcode: string, number: string, street: string) =>
  ({ g, uprn, postcode, post_town: 'BRISTOL', sub_building: null, building_name: null, building_number: number, street_name: street });
const record = (g: number | null, id: string, postcode: string | null, paon: string, street: string) =>
  ({ g, src: 0, id, postcode, town: 'BRISTOL', p1: null, p2: paon, p3: street });

/** Two outcodes: a match in its postcode, one on its street in the outcode, one set aside for the street pass, one with no street. */
const job = (kind: KeyKind = 'sale'): MatchJob => ({
  pass: 'outcode', kinds: [kind], streetKeys: true,
  candidates: [
    address(1, 11, 'BS1 1AA', '1', 'High Street'), address(1, 12, 'BS1 1AB', '2', 'High Street'),
    address(2, 21, 'BS2 2AA', '5', 'Mill Lane'), address(3, 31, 'BS3 3AA', '7', ''),
  ],
  records: [
    record(1, 'a', 'BS1 1AA', '1', 'HIGH ST'), record(1, 'b', 'BS1 1AA', '2', 'High Street'),
    record(2, 'c', 'BS2 2ZZ', '5', 'Mill Lane'), record(null, 'd', null, '9', ''),
  ],
});

describe('ETL_MATCH_THREADS', () => {
  it('is 2 unless set, and a whole number from 1 when set', () => {
    expect(matchThreads({})).toBe(1);
    expect(matchThreads({ ETL_MATCH_THREADS: ' 1 ' })).toBe(1);
    expect(matchThreads({ ETL_MATCH_THREADS: '3' })).toBe(3);
    for (const bad of ['0', 'two', '1.5', '-2']) expect(() => matchThreads({ ETL_MATCH_THREADS: bad })).toThrow(/ETL_MATCH_THREADS must be a whole number from 1/);
  });
});

describe('the matching workers', () => {
  it('answer a job as this thread does, and keep working after a job that threw', async () => {
    const here = await inThread().run(job());
    // Independently: 1 High Street in its postcode; 2 High Street on its street within BS1;
    // c's postcode has no address, so it waits for the street pass; d names no street.
    expect(here.outcomes).toEqual([
      { uprn: 11, method: 'postcode', score: 1 },
      { uprn: 12, method: 'street', score: 1 },
      'MILL LANE|BRISTOL',
      { uprn: null, reason: 'no_postcode_candidates' },
    ]);
    expect(here.keyUprns).toEqual([11, 12, 21]);
    expect(here.keys).toEqual(['HIGH STREET|BRISTOL', 'HIGH STREET|BRISTOL', 'MILL LANE|BRISTOL']);
    const pool = workerThreads(2);
    try {
      await expect(pool.run(job('bad' as KeyKind))).rejects.toThrow(/address matching worker 1 of 2 failed: Error: unknown record key kind: bad/);
      const answers = await Promise.all([pool.run(job()), pool.run(job()), pool.run(job())]);
      for (const a of answers) expect(a).toEqual(here);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
