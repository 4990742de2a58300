/**
 * The server opens a newly published build's resources in the background (service/build-warmer.ts),
 * so after a swap no request waits for an index or a model to load.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import '../../service/app.ts';
import { startBuildWarmer } from '../../service/build-warmer.ts';
import { createLogger } from '../../service/log.ts';
import { fileDataSource } from '../../service/middleware/data.ts';
import { propertyRecords } from '../../service/records/property-records.ts';
import { searchIndexes } from '../../service/search/indexes.ts';
import { PerBuild } from '../../service/store/per-build.ts';
import { buildStores } from '../../service/store/stores.ts';
import { saleValuers } from '../../service/valuation/sale-valuer.ts';
import { publishSynthBuild } from '../support/published.ts';
import { tempDir } from '../support/tmp.ts';

const tmp = tempDir('pi-warmer-');
afterAll(tmp.cleanup);

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('build warmer', () => {
  it('opens every per-build resource of the current build, and of each new build when it is published, without a request', async () => {
    const dataDir = join(tmp.dir, 'data');
    await publishSynthBuild(dataDir, { addresses: 1000, seed: 3 });
    const logs: string[] = [];
    const warmer = startBuildWarmer(fileDataSource(dataDir), createLogger('info', { write: (l: string) => void logs.push(l) }), 100);
    try {
      await warmer.idle();
      const first = realpathSync(join(dataDir, 'current'));
      expect(warmer.serving.current()?.dir).toBe(first);
      for (const r of [buildStores, searchIndexes, propertyRecords, saleValuers]) expect(r.servingDir).toBe(first);
      expect(PerBuild.all.length).toBeGreaterThanOrEqual(10);

      await publishSynthBuild(dataDir, { addresses: 1000, seed: 3 });
      const second = realpathSync(join(dataDir, 'current'));
      expect(second).not.toBe(first);
      // Requests stay on the first build until every resource of the second is open, then move at once.
      expect(warmer.serving.current()?.dir).toBe(first);
      await until(() => warmer.serving.current()?.dir !== first, 30_000);
      expect(warmer.serving.current()?.dir).toBe(second);
      for (const r of PerBuild.all) expect(r.servingDir ?? second).toBe(second);
      await warmer.idle();
      for (const r of [buildStores, searchIndexes, propertyRecords, saleValuers]) expect(r.servingDir).toBe(second);
      const warmed = logs.map((l) => JSON.parse(l) as { msg: string; build_id?: string }).filter((l) => l.msg === 'build warmed');
      expect(warmed).toHaveLength(2);
    } finally {
      warmer.stop();
    }
  }, 120_000);
});
