import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { currentBuildId, verifyBuild } from '../../etl/publish/publish.ts';
import { runEtlCli } from '../support/etl-cli.ts';
import { synthRegion } from '../support/region.ts';
import { tempDir } from '../support/tmp.ts';

const tmp = tempDir('pi-kill-etl-');
afterAll(tmp.cleanup);
const KILLS = 20;

describe('the ETL killed at random moments', () => {
  it(`always leaves current on a complete, valid build (${KILLS} kills)`, async () => {
    const sources = await synthRegion(500, 5);
    const dataDir = join(tmp.dir, 'data');
    const outcomes: string[] = [];
    let last: string | undefined;
    // Kill moments spread over a whole run as long as the last finished one took on this
    // machine (a fixed window let most runs finish first on a fast machine).
    let full = 5_000;
    for (let i = 0; outcomes.filter((o) => o === 'killed').length < KILLS; i++) {
      // Every fifth run is left to finish so that later kills land while a good build exists.
      const ms = i % 5 === 0 ? 120_000 : 300 + Math.floor(Math.random() * 0.95 * (full - 300));
      const run = await runEtlCli(sources, dataDir, ms);
      outcomes.push(run.outcome);
      if (run.outcome === 'finished') full = run.ms;
      const cur = await currentBuildId(dataDir);
      if (cur) {
        const m = await verifyBuild(join(dataDir, 'current'));
        expect(m.build_id).toBe(cur);
        expect(m.tables.properties!.rows).toBe(500);
        if (last) expect(cur >= last).toBe(true);
        last = cur;
      }
      if (i > 60) throw new Error('too many runs');
    }
    expect(outcomes.filter((o) => o === 'finished').length).toBeGreaterThan(0);
    expect(last).toBeDefined();
  }, 600_000);
});
