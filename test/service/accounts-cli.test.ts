import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adminSocketPath, ledgerDir, openFileLedger, startAdminServer } from '../../service/ledger/index.ts';
import { parseCommand } from '../../service/accounts/cli.ts';
import { tempDir } from '../support/tmp.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const tmp = tempDir('pi-cli-');
afterAll(tmp.cleanup);
let n = 0;
const freshData = () => join(tmp.dir, `d${n++}`);

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((res) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'service/accounts/cli.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: '', ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => res({ code, out, err }));
  });
}

describe('accounts CLI, ledger opened directly', { timeout: 240_000 }, () => {
  it('create --json prints account_id, api_key and tier once; the key authenticates', async () => {
    const data = freshData();
    const r = await cli(['create', '--tier', 'starter', '--name', 'Acme Ltd', '--json'], { DATA_DIR: data });
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toHaveLength(1);
    const created = JSON.parse(r.out);
    expect(Object.keys(created)).toEqual(['account_id', 'api_key', 'tier']);
    expect(created.tier).toBe('starter');
    expect(created.api_key).toMatch(/^pi_live_/);
    const l = await openFileLedger({ dir: ledgerDir(data) });
    expect(l.authenticate(created.api_key)?.account_id).toBe(created.account_id);
    expect(l.account(created.account_id, new Date())?.name).toBe('Acme Ltd');
    await l.close();
  });

  it('list, show, upgrade, downgrade, rotate-key and revoke-key, in JSON and as tables', async () => {
    const data = freshData();
    const dd = ['--data-dir', data];
    const ent = JSON.parse((await cli(['create', '--tier', 'enterprise', '--rate-limit', '300/10s', '--json', ...dd])).out);
    const id = JSON.parse((await cli(['create', '--tier', 'growth', '--json', ...dd])).out).account_id as string;
    const seq = async (args: string[]) => {
      const r = await cli([...args, ...dd]);
      expect(r.code, r.err).toBe(0);
      return r.out;
    };
    const accounts = JSON.parse(await seq(['list', '--json']));
    expect(accounts.map((a: { account_id: string }) => a.account_id).sort()).toEqual([ent.account_id, id].sort());
    const shown = JSON.parse(await seq(['show', ent.account_id, '--json']));
    expect(shown.account).toMatchObject({ tier: 'enterprise', remaining: null, rate_limit: { limit: 300, windowMs: 10_000 } });
    expect(shown.usage).toMatchObject({ total_calls: 0, total_credits: 0 });
    expect(JSON.parse(await seq(['upgrade', id, '--tier', 'pro', '--json']))).toMatchObject({ tier: 'pro', remaining: 15_000 });
    expect(await seq(['downgrade', ent.account_id, '--tier', 'scale'])).toMatch(/tier\s+enterprise \(downgrade to scale at /);
    const after = JSON.parse(await seq(['list', '--json'])) as { account_id: string; tier: string; pending_tier: string | null; remaining: number }[];
    expect(after.find((a) => a.account_id === id)).toMatchObject({ tier: 'pro', remaining: 15_000 });
    expect(after.find((a) => a.account_id === ent.account_id)).toMatchObject({ tier: 'enterprise', pending_tier: 'scale' });
    const human = await seq(['list']);
    expect(human.split('\n')[0]).toMatch(/^ACCOUNT\s+NAME\s+TIER\s+PENDING\s+USED\s+REMAINING\s+RATE\s+CYCLE END$/);
    expect(human).toContain('unlimited');
    const rotated = JSON.parse(await seq(['rotate-key', id, '--json']));
    expect(rotated.api_key).toMatch(/^pi_live_/);
    expect(await seq(['revoke-key', id])).toContain(`Revoked every key of ${id}`);
    const l = await openFileLedger({ dir: ledgerDir(data) });
    expect(l.authenticate(rotated.api_key)).toBeUndefined();
    expect(l.authenticate(ent.api_key)?.account_id).toBe(ent.account_id);
    await l.close();
  });

  it('bad input exits 2 with a clear message', async () => {
    const data = freshData();
    const dd = ['--data-dir', data];
    const id = JSON.parse((await cli(['create', '--tier', 'pro', '--json', ...dd])).out).account_id as string;
    // Refused while parsing: checked in-process, plus two spawned for the exit code and usage text.
    const parseCases: [string[], RegExp][] = [
      [['create'], /create needs --tier/],
      [['create', '--tier', 'gold'], /--tier must be one of free, starter/],
      [['create', '--tier', 'enterprise', '--rate-limit', 'fast'], /--rate-limit must look like 100\/10s/],
      [['show'], /show needs an <account_id>/],
      [['list', '--bogus'], /Unknown option '--bogus'/],
      [['list', 'extra'], /list takes no <account_id>/],
      [['show', 'acc_1', '--tier', 'pro'], /show takes no --tier/],
      [['list', '--name', 'x'], /--name and --rate-limit apply to create only/],
    ];
    for (const [args, message] of parseCases) expect(() => parseCommand(args), args.join(' ')).toThrow(message);
    expect(parseCommand(['create', '--tier', 'enterprise', '--rate-limit', '500/1m', '--data-dir', '/x']).req).toEqual({
      op: 'create',
      tier: 'enterprise',
      rate_limit: { limit: 500, windowMs: 60_000 },
    });
    const spawnedParseCases: [string[], RegExp][] = [
      [[], /missing command/],
      [['frobnicate'], /unknown command "frobnicate"/],
    ];
    // ...and refused by the ledger (each takes the writer lock in turn).
    const ledgerCases: [string[], RegExp][] = [
      [['create', '--tier', 'pro', '--rate-limit', '10/10s'], /rate limit can only be set for enterprise/],
      [['show', 'acc_missing'], /unknown account acc_missing/],
      [['upgrade', id, '--tier', 'starter'], /upgrade must move to a higher tier than pro/],
      [['downgrade', id, '--tier', 'premium'], /downgrade must move to a lower tier than pro/],
    ];
    const results = await Promise.all(spawnedParseCases.map(([args]) => cli([...args, ...dd])));
    for (const r of results) expect(r.err).toContain('usage: npm run accounts -- <command>');
    for (const [args] of ledgerCases) results.push(await cli([...args, ...dd]));
    const cases = [...spawnedParseCases, ...ledgerCases];
    for (const [i, r] of results.entries()) {
      expect(r.code, `${cases[i]![0].join(' ')}: ${r.err}`).toBe(2);
      expect(r.err).toMatch(cases[i]![1]);
      expect(r.out).toBe('');
    }
  });
});

describe('accounts CLI while a server holds the ledger (admin socket)', { timeout: 240_000 }, () => {
  it('goes through the socket: a key revoked by the CLI stops authenticating in the server at once', async () => {
    const data = freshData();
    const dir = ledgerDir(data);
    const ledger = await openFileLedger({ dir });
    const admin = await startAdminServer(ledger, adminSocketPath(dir));
    try {
      expect(statSync(adminSocketPath(dir)).mode & 0o777).toBe(0o600);
      const created = await cli(['create', '--tier', 'business', '--json'], { DATA_DIR: data });
      expect(created.code, created.err).toBe(0);
      const { account_id, api_key } = JSON.parse(created.out);
      // The serving process sees the new account and key without reopening anything.
      expect(ledger.authenticate(api_key)?.account_id).toBe(account_id);
      const rotated = await cli(['rotate-key', account_id, '--json'], { DATA_DIR: data });
      const newKey = JSON.parse(rotated.out).api_key as string;
      expect(ledger.authenticate(api_key)).toBeUndefined();
      expect(ledger.authenticate(newKey)?.account_id).toBe(account_id);
      const revoked = await cli(['revoke-key', account_id], { DATA_DIR: data });
      expect(revoked.code, revoked.err).toBe(0);
      expect(ledger.authenticate(newKey)).toBeUndefined();
      const bad = await cli(['upgrade', account_id, '--tier', 'free'], { DATA_DIR: data });
      expect([bad.code, bad.err.trim()]).toEqual([2, 'accounts: upgrade must move to a higher tier than business (got free)']);
      const shown = await cli(['show', account_id], { DATA_DIR: data });
      expect(shown.out).toMatch(/tier\s+business/);
    } finally {
      await admin.close();
      await ledger.close();
    }
  });

  it('answers protocol errors per line and keeps the connection', async () => {
    const dir = ledgerDir(freshData());
    const ledger = await openFileLedger({ dir });
    const admin = await startAdminServer(ledger, adminSocketPath(dir));
    try {
      const replies = await new Promise<string[]>((res, rej) => {
        const sock = createConnection(adminSocketPath(dir));
        let buf = '';
        sock.on('error', rej);
        sock.on('data', (d) => {
          buf += d.toString();
          const lines = buf.split('\n').filter(Boolean);
          if (lines.length === 4) {
            sock.end();
            res(lines);
          }
        });
        sock.write('not json\n{"op":"nope"}\n{"op":"show","account_id":"acc_x"}\n{"op":"ping"}\n');
      });
      const parsed = replies.map((l) => JSON.parse(l));
      expect(parsed[0]).toEqual({ ok: false, error: { code: 'invalid_input', message: 'request is not JSON' } });
      expect(parsed[1]).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      expect(parsed[2]).toEqual({ ok: false, error: { code: 'unknown_account', message: 'unknown account acc_x' } });
      expect(parsed[3]).toEqual({ ok: true, result: { pid: process.pid } });
    } finally {
      await admin.close();
      await ledger.close();
    }
  });

  it('a locked ledger with no admin socket fails with a clear message (exit 1)', async () => {
    const data = freshData();
    const ledger = await openFileLedger({ dir: ledgerDir(data) });
    try {
      const r = await cli(['list'], { DATA_DIR: data });
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/locked by running process \d+.*admin socket does not answer/);
    } finally {
      await ledger.close();
    }
  });
});
