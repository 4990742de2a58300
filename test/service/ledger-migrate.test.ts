/**
 * `npm run accounts -- migrate-to-postgres`: a file ledger with upgrades, downgrades,
 * roll-overs, rotated and revoked keys and compacted segments moves into a real PostgreSQL
 * ledger; afterwards the PostgreSQL ledger answers exactly what the file ledger answers (the
 * reference), for balances, cycles, pending downgrades, usage and keys; a second run
 * refuses; the accounts CLI then works against PostgreSQL with no server running.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerDir, openFileLedger, openPgLedger, type FileLedger } from '../../service/ledger/index.ts';
import { postgresUnavailable, startPostgres, type PgServer } from '../support/postgres.ts';
import { tempDir } from '../support/tmp.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const why = postgresUnavailable();
if (why) console.warn(`ledger migration test skipped: ${why}`);

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((res) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'service/accounts/cli.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.on('exit', (code) => res({ code, out, err }));
  });
}

const T0 = new Date('2026-01-31T09:00:00Z');
const day = (n: number) => new Date(T0.getTime() + n * 86_400_000);
const END = new Date('2026-06-15T00:00:00Z');

/** Three cycles of use with every kind of plan change; returns what the test checks by hand. */
async function history(l: FileLedger) {
  const starter = (await l.createAccount({ tier: 'starter', name: 'S' }, T0)).account.account_id;
  const pro = (await l.createAccount({ tier: 'pro', name: 'P' }, T0)).account.account_id;
  const free = await l.createAccount({ tier: 'free', name: 'F' }, T0);
  const ent = (await l.createAccount({ tier: 'enterprise', name: 'E', rateLimit: { limit: 99, windowMs: 10_000 } }, T0)).account.account_id;
  const charge = async (a: string, cost: number, now: Date, i: number) => {
    const r = l.reserve(a, cost, now);
    if (r.ok) await l.commit(r.reservation, { endpoint: i % 2 ? 'GET /v1/properties/{uprn}' : 'GET /v1/valuations/{uprn}/sale', request_id: `r${i}` }, now);
  };
  for (let i = 0; i < 90; i++) {
    const now = day(i);
    await charge(starter, 30, now, i);
    await charge(pro, 7, now, i);
    await charge(free.account.account_id, 3, now, i);
    await charge(ent, 1000, now, i);
    if (i === 10) await l.upgrade(starter, 'growth', now); // prorated, at once
    if (i === 40) await l.downgrade(pro, 'starter', now); // at the next renewal (28 Mar 09:00 → 31 Mar)
  }
  const rotated = (await l.rotateKey(starter, day(50))).api_key;
  await l.revokeKey(pro, day(60));
  return { starter, pro, free: free.account.account_id, freeKey: free.api_key, ent, rotated };
}

describe.skipIf(why !== undefined)('migrate a file ledger into PostgreSQL', () => {
  let server: PgServer;
  const tmp = tempDir('pi-migrate-');
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  it('moves everything once; PostgreSQL then answers as the file ledger does; a second run refuses', async () => {
    const dataDir = `${tmp.dir}/data`;
    const file = await openFileLedger({ dir: ledgerDir(dataDir), snapshotEvery: 50, snapshotOnClose: false }); // snapshots and compaction on the way
    const h = await history(file);
    await file.close();

    const first = await cli(['migrate-to-postgres', '--data-dir', dataDir, '--ledger-url', server.url, '--json']);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    const report = JSON.parse(first.out);
    expect(report).toMatchObject({ accounts: 4, keys: 5, from_snapshot: true });
    expect(report.records).toBeGreaterThan(0);
    expect(report.records).toBeLessThan(50); // only what followed the last snapshot

    const again = await cli(['migrate-to-postgres', '--data-dir', dataDir, '--ledger-url', server.url]);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/refusing to import twice/);

    const ref = await openFileLedger({ dir: ledgerDir(dataDir), snapshotOnClose: false });
    const pg = await openPgLedger({ url: server.url });
    try {
      // The reference, and a few values worked out by hand.
      const fileViews = ref.listAccounts(END);
      expect(await pg.listAccounts(END)).toEqual(fileViews);
      const byId = new Map(fileViews.map((v) => [v.account_id, v]));
      expect(byId.get(h.pro)).toMatchObject({ tier: 'starter', pending_tier: null }); // the downgrade applied at renewal
      expect(byId.get(h.starter)).toMatchObject({ tier: 'growth', allowance: 5000 });
      expect(byId.get(h.free)).toMatchObject({ tier: 'free', remaining: 1 }); // 33 calls of 3 from the one-time 100, never renewed
      expect(byId.get(h.ent)).toMatchObject({ remaining: null, rate_limit: { limit: 99, windowMs: 10_000 } });
      for (const id of [h.starter, h.pro, h.free, h.ent]) {
        const range = { account_id: id, from: '2026-01-01', to: '2026-12-31' };
        expect(await pg.usage(range, END)).toEqual(ref.usage(range, END));
        expect(await pg.usage({ account_id: id }, END)).toEqual(ref.usage({ account_id: id }, END));
      }
      expect((await pg.usage({ account_id: h.ent, from: '2026-01-01', to: '2026-12-31' }, END)).total_calls).toBe(90);
      // Keys: the rotated one works, the revoked and replaced ones do not, the untouched one does.
      expect((await pg.authenticate(h.rotated))?.account_id).toBe(h.starter);
      expect((await pg.authenticate(h.freeKey))?.account_id).toBe(h.free);
      const proKeys = (await pg.pool.query('SELECT revoked_at FROM api_keys WHERE account_id = $1', [h.pro])).rows;
      expect(proKeys).toHaveLength(1);
      expect(proKeys[0].revoked_at).not.toBeNull();
      // And it keeps charging by the same rules.
      const r = await pg.reserve(h.starter, 10, END);
      expect(r.ok).toBe(true);
      if (r.ok) await pg.commit(r.reservation, { endpoint: 'GET /v1/properties/{uprn}', request_id: 'after' }, END);
      expect((await pg.account(h.starter, END))?.used_this_cycle).toBe(byId.get(h.starter)!.used_this_cycle + 10);
    } finally {
      await pg.close();
      await ref.close();
    }

    // The accounts CLI against PostgreSQL, no server running.
    const shown = await cli(['show', h.starter, '--json'], { LEDGER_URL: server.url });
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.out).account).toMatchObject({ account_id: h.starter, tier: 'growth' });
    const created = await cli(['create', '--tier', 'pro', '--json', '--ledger-url', server.url]);
    expect(created.code).toBe(0);
    expect(Object.keys(JSON.parse(created.out)).sort()).toEqual(['account_id', 'api_key', 'tier']);
    const bad = await cli(['upgrade', h.starter, '--tier', 'free', '--ledger-url', server.url]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/upgrade must move to a higher tier/);
  }, 600_000); // spawns the CLI five times: slow on a loaded machine
});
