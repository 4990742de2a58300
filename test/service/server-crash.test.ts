/**
 * The server killed with SIGKILL at seeded random moments under load (each kill after that
 * run's first 2xx, so every kill lands with requests flowing), and restarted on the same
 * DATA_DIR, until enough kills have happened: every 2xx the client received is charged exactly once, no request
 * answered non-2xx is charged, and the ledger opens cleanly every time. A request in
 * flight at the kill may be charged (its charge was durable, its response lost with the
 * process): those are counted, not forbidden, since no server can know that bytes it
 * sent were received.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../etl/pipeline/run.ts';
import { ledgerDir, openFileLedger, readLogRecords } from '../../service/ledger/index.ts';
import { chaosScale, untilEnough, withSeed } from '../support/chaos.ts';
import { quietLog, synthRegion } from '../support/region.ts';
import { tempDir } from '../support/tmp.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const KILLS = chaosScale(50, 12);
const BUDGET_MS = chaosScale(900_000, 480_000);
const tmp = tempDir('pi-server-crash-');
afterAll(tmp.cleanup);

interface Outcome { status: number | 'error'; requestId?: string }

/** One GET with its own connection; resolves with the status and request id, or 'error'. */
function get(port: number, path: string, key: string): Promise<Outcome> {
  return new Promise((res) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${key}` }, agent: false }, (r) => {
      r.resume();
      r.on('end', () => res({ status: r.statusCode ?? 0, requestId: String(r.headers['x-request-id'] ?? '') }));
      r.on('error', () => res({ status: 'error' }));
    });
    req.on('error', () => res({ status: 'error' }));
    req.end();
  });
}

/** Starts the server on a free port; resolves once it logs "listening". */
async function startServer(dataDir: string): Promise<{ port: number; kill: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'service/server.ts'], {
    cwd: ROOT, env: { PATH: process.env.PATH ?? '', PORT: '0', METRICS_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  for await (const line of createInterface({ input: child.stdout! })) {
    const msg = JSON.parse(line) as { msg?: string; port?: number };
    if (msg.msg === 'listening') {
      return { port: msg.port!, kill: async () => { child.kill('SIGKILL'); await exited; } };
    }
  }
  throw new Error(`server exited before listening: ${err.slice(-2000)}`);
}

describe('the server killed with SIGKILL under load', () => {
  it(`charges every received 2xx exactly once and nothing answered otherwise (${KILLS} kills under load)`, async () => {
    const dataDir = join(tmp.dir, 'data');
    await runBuild({ dataDir, sourcesDir: await synthRegion(500, 5), log: quietLog });
    const { readFileSync } = await import('node:fs');
    const uprns = readFileSync(join(await synthRegion(500, 5), 'truth', 'properties.csv'), 'utf8').split('\n').slice(1, 41).map((l) => l.split(',')[0]!);
    const ledger = await openFileLedger({ dir: ledgerDir(dataDir) });
    const { api_key: key } = await ledger.createAccount({ tier: 'enterprise', name: 'crash', rateLimit: { limit: 1_000_000, windowMs: 10_000 } }, new Date());
    await ledger.close();

    await withSeed('server-crash', async (random) => {
      const ok = new Set<string>();
      const notOk = new Set<string>();
      let inFlightAtKill = 0;
      let kills = 0;
      await untilEnough({
        budgetMs: BUDGET_MS,
        enough: () => kills >= KILLS,
        progress: () => `${kills} of ${KILLS} kills under load (${ok.size} 2xx so far)`,
        step: async () => {
          const server = await startServer(dataDir);
          const pending = new Set<Promise<void>>();
          let stop = false;
          let n = 0;
          let firstOk!: () => void;
          const loaded = new Promise<void>((r) => (firstOk = r));
          const worker = async () => {
            while (!stop) {
              const o = await get(server.port, `/v1/properties/${uprns[n++ % uprns.length]}`, key);
              if (o.status === 'error') continue;
              if (o.status >= 200 && o.status < 300) {
                ok.add(o.requestId!);
                firstOk();
              } else notOk.add(o.requestId!);
            }
          };
          for (let w = 0; w < 8; w++) pending.add(worker());
          let noLoad: NodeJS.Timeout | undefined;
          const timedOut = await Promise.race([loaded.then(() => false), new Promise<boolean>((r) => (noLoad = setTimeout(() => r(true), 60_000)))]);
          clearTimeout(noLoad);
          if (timedOut) throw new Error('the server answered no 2xx within 60 s of listening');
          await new Promise((r) => setTimeout(r, random() * 500));
          await server.kill();
          kills++;
          stop = true;
          await Promise.all(pending);
          const debits = (await readLogRecords(ledgerDir(dataDir))).records.filter((r) => r.t === 'debit');
          // The ledger must open cleanly after every kill (torn tails dropped, nothing refused);
          // closed without a snapshot so the log keeps every debit for the next check.
          const reopened = await openFileLedger({ dir: ledgerDir(dataDir), snapshotOnClose: false });
          await reopened.close();
          const charged = new Map<string, number>();
          for (const d of debits) if (d.t === 'debit') charged.set(d.r, (charged.get(d.r) ?? 0) + 1);
          for (const id of ok) expect(charged.get(id), `2xx ${id} charged once`).toBe(1);
          for (const id of notOk) expect(charged.has(id), `non-2xx ${id} not charged`).toBe(false);
          for (const [id, times] of charged) expect(times, `${id} charged ${times} times`).toBe(1);
          inFlightAtKill = [...charged.keys()].filter((id) => !ok.has(id)).length;
        },
      });
      process.stdout.write(`server crash test: ${kills} kills under load, ${ok.size} 2xx received and charged once, ${notOk.size} non-2xx uncharged, ${inFlightAtKill} charged whose response was lost with the process\n`);
    });
  }, 1_000_000);
});
