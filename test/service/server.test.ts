/**
 * The server as a process (`service/server.ts`): config fails fast; it serves on its
 * port; SIGTERM lets an in-flight request finish, refuses new connections, flushes and
 * unlocks the ledger, and exits 0.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { ledgerDir, openFileLedger } from '../../service/ledger/index.ts';
import { tempDir } from '../support/tmp.ts';
import { call } from './support.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];
const cleanups: (() => void)[] = [];

function startProcess(env: Record<string, string>): { child: ChildProcess; lines: AsyncIterator<string>; stderr: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'service/server.ts'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exit = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  return { child, lines: createInterface({ input: child.stdout! })[Symbol.asyncIterator](), stderr: () => err, exit };
}

/** Next JSON log line whose msg is `msg`. */
async function waitFor(lines: AsyncIterator<string>, msg: string): Promise<Record<string, unknown>> {
  for (;;) {
    const { value, done } = await lines.next();
    if (done) throw new Error(`process ended before logging "${msg}"`);
    const line = JSON.parse(value) as Record<string, unknown>;
    if (line.msg === msg) return line;
  }
}

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const f of cleanups.splice(0)) f();
});

describe('server process', () => {
  it('a key created and revoked with the accounts CLI works, then gets 401, in the running server at once', async () => {
    const { dir, cleanup } = tempDir('pi-server-');
    cleanups.push(cleanup);
    const p = startProcess({ PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: 'info' });
    const listening = await waitFor(p.lines, 'listening');
    const port = listening.port as number;
    const base = `http://127.0.0.1:${port}`;
    // /metrics: on METRICS_PORT (its own listener), a 404 on the API port.
    expect(listening.metrics_port).not.toBe(port);
    expect((await call(`http://127.0.0.1:${listening.metrics_port as number}`, 'GET', '/metrics')).text).toContain('# TYPE http_requests_total counter');
    expect((await call(base, 'GET', '/metrics')).status).toBe(404);
    const accounts = (args: string[]) => execFileSync(process.execPath, ['--import', 'tsx', 'service/accounts/cli.ts', ...args], {
      cwd: ROOT, env: { PATH: process.env.PATH ?? '', DATA_DIR: dir }, encoding: 'utf8',
    });
    const { account_id, api_key } = JSON.parse(accounts(['create', '--tier', 'starter', '--json'])) as { account_id: string; api_key: string };
    expect((await call(base, 'GET', '/v1/account', { key: api_key })).status).toBe(200);
    accounts(['revoke-key', account_id]);
    const after = await call(base, 'GET', '/v1/account', { key: api_key });
    expect(after.status).toBe(401);
    expect(after.json.code).toBe('unauthorized');
  });

  it('refuses bad configuration before listening, naming every bad variable', async () => {
    const p = startProcess({ PORT: 'eighty', LOG_LEVEL: 'loud' });
    expect(await p.exit).toBe(2);
    expect(p.stderr()).toMatch(/invalid configuration:\n {2}PORT: .*\n {2}LOG_LEVEL: /);
  });

  it('serves, then on SIGTERM finishes the in-flight request, flushes the ledger and exits 0', async () => {
    const { dir, cleanup } = tempDir('pi-server-');
    cleanups.push(cleanup);
    const setup = await openFileLedger({ dir: ledgerDir(dir) });
    const { account, api_key } = await setup.createAccount({ tier: 'business', name: 'proc' }, new Date());
    await setup.close();

    const p = startProcess({ PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: 'info' });
    const port = (await waitFor(p.lines, 'listening')).port as number;
    const base = `http://127.0.0.1:${port}`;
    expect((await call(base, 'GET', '/healthz')).status).toBe(200);
    const me = await call(base, 'GET', '/v1/account', { key: api_key });
    expect(me.json.account_id).toBe(account.account_id);

    // A POST whose body is still being sent when SIGTERM arrives.
    const body = JSON.stringify({ postcode: 'BS1 4DJ', bedrooms: 2 });
    let continued!: () => void;
    let finish!: () => void;
    const inHandler = new Promise<void>((res) => (continued = res));
    const reply = new Promise<{ status: number; text: string }>((res, rej) => {
      const req = request(`${base}/v1/valuations/str-estimate`, {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json', 'content-length': String(body.length), expect: '100-continue' },
      });
      req.on('continue', () => {
        req.write(body.slice(0, 5));
        continued();
      });
      req.on('response', (res2) => {
        let text = '';
        res2.on('data', (c: Buffer) => (text += c.toString()));
        res2.on('end', () => res({ status: res2.statusCode!, text }));
      });
      req.on('error', rej);
      finish = () => req.end(body.slice(5));
    });
    await inHandler;
    p.child.kill('SIGTERM');
    await waitFor(p.lines, 'shutting down: finishing in-flight requests');
    await expect(call(base, 'GET', '/healthz')).rejects.toThrow(/ECONNREFUSED/);
    finish();
    const r = await reply;
    // No build is published: the in-flight call completes with its proper answer.
    expect(r.status).toBe(503);
    expect(JSON.parse(r.text).code).toBe('data_unavailable');
    await waitFor(p.lines, 'stopped: ledger flushed');
    expect(await p.exit).toBe(0);

    // The lock is released and nothing acknowledged was lost.
    const after = await openFileLedger({ dir: ledgerDir(dir) });
    expect(after.account(account.account_id, new Date())?.tier).toBe('business');
    await after.close();
  });
});
