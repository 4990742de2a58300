/**
 * A loop of publishes (its own process) SIGKILLed at seeded random moments drawn over the
 * length of a publish as measured on this machine, until enough kills have landed
 * mid-publish (the loop's own `.partial` folder existed) and enough publishes completed
 * between kills. After every kill `current` is a complete build that never goes back.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILDS, PARTIAL_SUFFIX } from '../../../etl/publish/layout.ts';
import { currentBuildId, pruneBuilds, verifyBuild } from '../../../etl/publish/publish.ts';
import { chaosScale, untilEnough, withSeed } from '../../support/chaos.ts';
import { tempDir } from '../../support/tmp.ts';

const tmp = tempDir('pi-kill-');
afterAll(tmp.cleanup);
const ROOT = resolve(import.meta.dirname, '../../..');
const KILLS = chaosScale(25, 8);
const BUDGET_MS = chaosScale(600_000, 300_000);

const partials = (dataDir: string): string[] => {
  try {
    return readdirSync(join(dataDir, BUILDS)).filter((f) => f.endsWith(PARTIAL_SUFFIX));
  } catch {
    return [];
  }
};

interface LoopRun {
  published: number;
  /** From ready to the first publish (start-up work included). */
  msToFirst?: number;
  /** Between later publishes. */
  msPerPublish?: number;
  midPublish: boolean;
}

/**
 * Runs the publish loop and SIGKILLs it `killAfterMs` after it is ready. Resolves with how
 * many builds it published, how long they took, and whether its own partial build existed
 * at the kill.
 */
function runAndKill(dataDir: string, killAfterMs: number): Promise<LoopRun> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/etl/publish/publish-loop.ts'), dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const before = new Set(partials(dataDir));
    let out = '';
    let err = '';
    let ready = 0;
    let midPublish = false;
    let timer: NodeJS.Timeout | undefined;
    const times: number[] = [];
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const now = performance.now();
      for (const _ of d.toString().matchAll(/^published /gm)) times.push(now);
      if (!ready && out.startsWith('ready\n')) {
        ready = now;
        timer = setTimeout(() => {
          midPublish = partials(dataDir).some((p) => !before.has(p));
          child.kill('SIGKILL');
        }, killAfterMs);
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') return rej(new Error(`publish loop exited on its own (${code}): ${err}`));
      const published = out.split('\n').filter((l) => l.startsWith('published ')).length;
      const [first, last] = [times[0], times.at(-1)];
      res({
        published,
        midPublish,
        ...(first ? { msToFirst: first - ready } : {}),
        ...(first && last && times.length > 1 ? { msPerPublish: (last - first) / (times.length - 1) } : {}),
      });
    });
  });
}

describe('a publish killed at random moments', () => {
  it(`leaves current on a complete build every time (${KILLS} kills mid-publish)`, async () => {
    await withSeed('publish-kill', async (random) => {
      const dataDir = tmp.dir;
      let lastGood: string | undefined;
      const check = async () => {
        const cur = await currentBuildId(dataDir);
        if (!cur) return expect(lastGood, 'current vanished after a good build').toBeUndefined();
        const m = await verifyBuild(join(dataDir, 'current'));
        expect(m.build_id).toBe(cur);
        if (lastGood) expect(cur >= lastGood, `current went back from ${lastGood} to ${cur}`).toBe(true);
        lastGood = cur;
      };
      // One loop left to publish for a while: a good build, and how long a publish takes here.
      const first = await runAndKill(dataDir, 5000);
      let toFirst = first.msToFirst ?? 5000;
      let perPublish = first.msPerPublish ?? toFirst;
      let midPublish = 0;
      let published = first.published;
      let killsAfterAPublish = 0;
      await check();
      await untilEnough({
        budgetMs: BUDGET_MS,
        enough: () => midPublish >= KILLS && killsAfterAPublish >= 3,
        progress: () => `${midPublish} of ${KILLS} kills mid-publish, ${killsAfterAPublish} of 3 after a completed publish (${published} publishes; here ~${Math.round(toFirst)} ms to the first, ~${Math.round(perPublish)} ms each after)`,
        step: async () => {
          // Anywhere from start-up to the end of this loop's third publish.
          const r = await runAndKill(dataDir, Math.round(random() * (toFirst + 2 * perPublish)));
          if (r.midPublish) midPublish++;
          if (r.published > 0) killsAfterAPublish++;
          if (r.msToFirst) toFirst = r.msToFirst;
          if (r.msPerPublish) perPublish = r.msPerPublish;
          published += r.published;
          await check();
          await pruneBuilds(dataDir, 3); // what the next run does first
        },
      });
      expect(lastGood).toBeDefined();
      console.log(`publish kill: ${midPublish} kills mid-publish, ${killsAfterAPublish} after a completed publish, ${published} publishes; current ${lastGood}`);
    });
  }, 700_000);
});
