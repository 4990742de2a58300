import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { currentBuildId, pruneBuilds, verifyBuild } from '../../../etl/publish/publish.ts';
import { tempDir } from '../../support/tmp.ts';

const tmp = tempDir('pi-kill-');
afterAll(tmp.cleanup);
const ROOT = resolve(import.meta.dirname, '../../..');
const KILLS = 25;

/** Runs the publish loop, SIGKILLs it after `ms`, resolves with how many builds it reported. */
function runAndKill(dataDir: string, ms: number): Promise<number> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/etl/publish/publish-loop.ts'), dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') rej(new Error(`publish loop exited on its own (${code}): ${err}`));
      else res(out.split('\n').filter((l) => l.startsWith('published ')).length);
    });
  });
}

describe('a publish killed at random moments', () => {
  it(`leaves current on a complete build every time (${KILLS} kills)`, async () => {
    const dataDir = tmp.dir;
    let published = 0;
    let lastGood: string | undefined;
    for (let i = 0; i < KILLS; i++) {
      // tsx start-up takes a few hundred ms; kill anywhere from before the first build to mid-loop.
      published += await runAndKill(dataDir, 300 + Math.floor(Math.random() * 900));
      const cur = await currentBuildId(dataDir);
      if (cur) {
        const m = await verifyBuild(join(dataDir, 'current'));
        expect(m.build_id).toBe(cur);
        if (lastGood) expect(cur >= lastGood).toBe(true); // never goes back to an older build
        lastGood = cur;
      }
      await pruneBuilds(dataDir, 3); // what the next run does first
    }
    expect(published).toBeGreaterThan(0); // the kills landed after some complete builds too
    expect(lastGood).toBeDefined();
  }, 120_000);
});
