/**
 * The ETL (its CLI, its own process) SIGKILLed at seeded random moments drawn over the
 * length of a whole run as measured on this machine, until enough kills have landed
 * mid-build (the run's own `.partial` build folder existed at the kill). After every run: `current` is
 * a complete, valid build that never goes back, and the next run is never blocked by what
 * the killed one left (its lock, its partial folder).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILDS, PARTIAL_SUFFIX } from '../../etl/publish/layout.ts';
import { currentBuildId, verifyBuild } from '../../etl/publish/publish.ts';
import { chaosScale, untilEnough, withSeed } from '../support/chaos.ts';
import { runEtlCli } from '../support/etl-cli.ts';
import { synthRegion } from '../support/region.ts';
import { tempDir } from '../support/tmp.ts';

const tmp = tempDir('pi-kill-etl-');
afterAll(tmp.cleanup);
const KILLS = chaosScale(20, 6);
const BUDGET_MS = chaosScale(900_000, 480_000);

/** The `.partial` build folders now (a killed run's stay until the next run prunes them). */
const partials = (dataDir: string): string[] => {
  try {
    return readdirSync(join(dataDir, BUILDS)).filter((f) => f.endsWith(PARTIAL_SUFFIX));
  } catch {
    return [];
  }
};

describe('the ETL killed at random moments', () => {
  it(`always leaves current on a complete, valid build (${KILLS} kills mid-build)`, async () => {
    await withSeed('kill-etl', async (random) => {
      const sources = await synthRegion(500, 5);
      const dataDir = join(tmp.dir, 'data');
      let midBuild = 0;
      let early = 0;
      let finished = 0;
      let last: string | undefined;
      const check = async () => {
        const cur = await currentBuildId(dataDir);
        if (!cur) return expect(last, 'current vanished after a good build').toBeUndefined();
        const m = await verifyBuild(join(dataDir, 'current'));
        expect(m.build_id).toBe(cur);
        expect(m.tables.properties!.rows).toBe(500);
        if (last) expect(cur >= last, `current went back from ${last} to ${cur}`).toBe(true);
        last = cur;
      };
      // The first run finishes: a good build to protect, and the length of a run here.
      let full = (await runEtlCli(sources, dataDir)).ms;
      finished++;
      await check();
      await untilEnough({
        budgetMs: BUDGET_MS,
        enough: () => midBuild >= KILLS,
        progress: () => `${midBuild} of ${KILLS} kills landed mid-build (${early} before the build began, ${finished} runs finished first; a run takes ~${Math.round(full)} ms here)`,
        step: async (i) => {
          // Every fifth run is left to finish, so later kills land over a newer good build.
          const before = new Set(partials(dataDir));
          const mine = () => partials(dataDir).some((p) => !before.has(p)); // this run's own partial build
          const run = i % 5 === 4 ? await runEtlCli(sources, dataDir) : await runEtlCli(sources, dataDir, Math.round(random() * full), mine);
          if (run.outcome === 'finished') {
            finished++;
            full = run.ms; // the machine's pace now
          } else if (run.atKill) midBuild++;
          else early++;
          await check();
        },
      });
      expect(finished).toBeGreaterThan(1);
      console.log(`kill-etl: ${midBuild} kills mid-build, ${early} before it began, ${finished} runs finished; current ${last}`);
    });
  }, 1_000_000);
});
