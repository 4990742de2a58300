/**
 * Data swaps under load (issue 9), against the server as production runs it (its own process,
 * NODE_ENV=production) with a mix of every endpoint's requests, made from the build's own rows
 * (test/support/endpoint-requests.ts), sent by eight concurrent keep-alive connections:
 *  - a new build published while the server is under load: no request fails, and the data
 *    answers move from the old build id to the new one (`X-Build-Id`) at one moment: no
 *    answer from the old build to a request sent after an answer from the new one arrived;
 *  - the ETL killed with SIGKILL at seeded random moments of a run (its length measured
 *    under load) until three kills have landed mid-build: every request still succeeds and
 *    is answered from the published build; `current` never moves to a partial build (a run
 *    that finished, or was killed after its atomic switch, is a publish under load, checked
 *    for failures too).
 * "Fails" means: an answer other than the one the same request got before the load (a 2xx,
 * or a documented 404 for a place without data), or a socket error.
 */
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILDS, MANIFEST, PARTIAL_SUFFIX } from '../../etl/publish/layout.ts';
import { startServerProcess, type ServerProcess } from '../../bench/support/server-process.ts';
import { openFileLedger, ledgerDir } from '../../service/ledger/index.ts';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { endpointRequests, readEndpointInputs } from '../support/endpoint-requests.ts';
import { runEtlCli } from '../support/etl-cli.ts';
import { publishSynthBuild } from '../support/published.ts';
import { chaosScale, untilEnough, withSeed } from '../support/chaos.ts';
import { tempDir } from '../support/tmp.ts';

const WORKERS = 8;
const MID_BUILD_KILLS = chaosScale(3, 2);
const BUDGET_MS = chaosScale(600_000, 300_000);
const tmp = tempDir('pi-swap-load-');
const dataDir = join(tmp.dir, 'data');
let server: ServerProcess;
let key: string;
let sources: string;
let firstBuild: string;
/** How long an ETL run took under load (the published one), to place the kills inside a run. */
let etlMs = 0;
interface EndpointRequest { endpoint: string; method: string; path: string; body?: string }
/** Every request with the status it got before any load. */
let calls: (EndpointRequest & { expected: number })[] = [];

interface Answer { endpoint: string; status: number | 'error'; build?: string; sent: number; done: number; expected: number }

const agent = new Agent({ keepAlive: true, maxSockets: WORKERS });

function send(r: EndpointRequest): Promise<{ status: number | 'error'; build?: string }> {
  return new Promise((res) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, method: r.method, path: r.path, agent, headers: { authorization: `Bearer ${key}`, ...(r.body ? { 'content-type': 'application/json' } : {}) } },
      (resp) => {
        resp.resume();
        resp.on('end', () => res({ status: resp.statusCode ?? 0, ...(resp.headers['x-build-id'] ? { build: String(resp.headers['x-build-id']) } : {}) }));
        resp.on('error', () => res({ status: 'error' }));
      },
    );
    req.on('error', () => res({ status: 'error' }));
    req.end(r.body);
  });
}

/** Eight workers cycling through the calls until `until` resolves; every answer, timed. */
async function load(until: Promise<unknown>): Promise<Answer[]> {
  const answers: Answer[] = [];
  let stop = false;
  void until.finally(() => (stop = true));
  let next = 0;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (!stop) {
        const c = calls[next++ % calls.length]!;
        const sent = performance.now();
        const a = await send(c);
        answers.push({ endpoint: c.endpoint, ...a, sent, done: performance.now(), expected: c.expected });
      }
    }),
  );
  return answers;
}

/** The `.partial` build folders now (a killed run's stay until the next run prunes them). */
const partials = (): string[] => {
  try {
    return readdirSync(join(dataDir, BUILDS)).filter((f) => f.endsWith(PARTIAL_SUFFIX));
  } catch {
    return [];
  }
};

const failures = (answers: Answer[]) => answers.filter((a) => a.status !== a.expected).map((a) => `${a.endpoint}: ${a.status} (expected ${a.expected})`);

beforeAll(async () => {
  // The real clock, as the ETL CLI the test runs next uses: the same data then makes the same tables.
  const published = await publishSynthBuild(dataDir, { addresses: 2000, seed: 11, now: new Date() });
  sources = published.sourcesDir;
  firstBuild = published.build_id;
  const ledger = await openFileLedger({ dir: ledgerDir(dataDir) });
  key = (await ledger.createAccount({ tier: 'enterprise', name: 'swap-load', rateLimit: { limit: 1_000_000_000, windowMs: 10_000 } }, new Date())).api_key;
  await ledger.close();
  server = await startServerProcess({ dataDir });
  await server.waitFor((l) => l.msg === 'build warmed', 60_000, true);
  const byEndpoint = [...endpointRequests(await readEndpointInputs(realpathSync(join(dataDir, 'current')), 500), 20)];
  // Interleaved (the i-th request of every endpoint, then the next), so every stretch of the load touches all of them.
  for (let i = 0; i < 20; i++) {
    for (const [endpoint, reqs] of byEndpoint) {
      const r = reqs[i];
      if (r) calls.push({ endpoint, method: endpoint.split(' ')[0]!, ...r, expected: 0 });
    }
  }
  for (const c of calls) c.expected = Number((await send(c)).status);
}, 180_000);

afterAll(async () => {
  agent.destroy();
  await server?.stop();
  tmp.cleanup();
});

describe('data swaps under load', () => {
  it('covers every endpoint with requests that the build answers', () => {
    const endpoints = new Set(calls.map((c) => c.endpoint));
    for (const r of V1_ROUTES) expect(endpoints, r.operationId).toContain(`${r.method} /v1${r.path}`);
    // Only documented outcomes before the load: 2xx, 404 (no data for that place), 503 (a source the build lacks).
    expect(calls.filter((c) => ![200, 404, 503].includes(c.expected)).map((c) => `${c.endpoint} ${c.path} ${c.expected}`)).toEqual([]);
    const byEndpoint = new Map<string, typeof calls>();
    for (const c of calls) byEndpoint.set(c.endpoint, [...(byEndpoint.get(c.endpoint) ?? []), c]);
    // Every endpoint is served: each answers from this build (some 200s).
    for (const [endpoint, cs] of byEndpoint) expect(cs.some((c) => c.expected === 200), `${endpoint} answered no 200`).toBe(true);
    const answering = [...byEndpoint].filter(([, cs]) => cs.some((c) => c.expected === 200)).map(([e]) => e);
    expect(answering.length).toBeGreaterThanOrEqual(11); // search, record, 5 valuations, rents, STR market, risks, account…
    console.log(`swap under load: ${calls.length} distinct requests; endpoints answering from the build: ${answering.length} of ${byEndpoint.size}`);
  });

  it('a build published under load: no request fails, and answers switch to the new build id at one moment', async () => {
    const etl = runEtlCli(sources, dataDir).then((r) => {
      etlMs = r.ms;
      return r.outcome;
    });
    const answers = await load(etl.then(() => server.waitFor((l) => l.msg === 'build warmed', 60_000)).then(() => new Promise((r) => setTimeout(r, 1500))));
    expect(await etl).toBe('finished');
    const secondBuild = realpathSync(join(dataDir, 'current')).split('/').pop()!;
    expect(secondBuild).not.toBe(firstBuild);

    expect(failures(answers)).toEqual([]);
    const data = answers.filter((a) => a.build !== undefined);
    expect(new Set(data.map((a) => a.build))).toEqual(new Set([firstBuild, secondBuild]));
    const firstNew = Math.min(...data.filter((a) => a.build === secondBuild).map((a) => a.done));
    const staleAfterSwitch = data.filter((a) => a.build === firstBuild && a.sent > firstNew);
    expect(staleAfterSwitch).toEqual([]);
    // Every data endpoint answered from the new build once it was switched.
    const switched = new Set(data.filter((a) => a.build === secondBuild).map((a) => a.endpoint));
    expect(new Set(data.map((a) => a.endpoint))).toEqual(switched);
    const status = await new Promise<string>((res) => {
      request({ host: '127.0.0.1', port: server.port, path: '/v1/status', agent }, (r) => {
        let b = '';
        r.on('data', (c: Buffer) => (b += c.toString()));
        r.on('end', () => res(b));
      }).end();
    });
    expect(JSON.parse(status).build_id).toBe(secondBuild);
    console.log(`swap under load: ${answers.length} requests over ${switched.size} data endpoints, 0 failed; ${data.filter((a) => a.build === firstBuild).length} from ${firstBuild}, ${data.filter((a) => a.build === secondBuild).length} from ${secondBuild}`);
  }, 600_000);

  it(`the ETL killed mid-build under load (${MID_BUILD_KILLS} times): every request answered from the published build`, async () => {
    expect(etlMs).toBeGreaterThan(0);
    await withSeed('swap-under-load', async (random) => {
      let published = realpathSync(join(dataDir, 'current'));
      let midBuild = 0;
      let finished = 0;
      let total = 0;
      await untilEnough({
        budgetMs: BUDGET_MS,
        enough: () => midBuild >= MID_BUILD_KILLS,
        progress: () => `${midBuild} of ${MID_BUILD_KILLS} kills landed mid-build (${finished} runs finished first; a run takes ~${Math.round(etlMs)} ms here under load)`,
        step: async () => {
          const publishedId = published.split('/').pop()!;
          const before = new Set(partials());
          const etl = runEtlCli(sources, dataDir, Math.round(random() * etlMs), () => partials().some((p) => !before.has(p)));
          const answers = await load(etl);
          const run = await etl;
          expect(failures(answers)).toEqual([]);
          total += answers.length;
          if (run.outcome === 'finished') {
            // It beat the kill: a publish under load, which must also fail nothing. Kills go on over the new build.
            finished++;
            etlMs = run.ms;
            published = realpathSync(join(dataDir, 'current'));
            const id = published.split('/').pop();
            await server.waitFor((l) => l.msg === 'build warmed' && l.build_id === id, 60_000, true);
            return;
          }
          const now = realpathSync(join(dataDir, 'current'));
          if (now !== published) {
            // The kill landed after the atomic switch (while the run pruned old builds or exited):
            // a publish, so `current` must be a complete build, never a partial folder.
            expect(now.endsWith(PARTIAL_SUFFIX)).toBe(false);
            expect(existsSync(join(now, MANIFEST))).toBe(true);
            expect(answers.filter((a) => a.build !== undefined && a.build !== publishedId && a.build !== now.split('/').pop())).toEqual([]);
            finished++;
            published = now;
            await server.waitFor((l) => l.msg === 'build warmed' && l.build_id === now.split('/').pop(), 60_000, true);
            return;
          }
          if (run.atKill) midBuild++;
          expect(answers.filter((a) => a.build !== undefined && a.build !== publishedId)).toEqual([]);
        },
      });
      console.log(`ETL killed under load: ${midBuild} kills mid-build, ${finished} runs finished first; ${total} requests, 0 failed`);
    });
  }, 700_000);
});
