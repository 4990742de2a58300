/**
 * Both ledger implementations behind one factory, so one behaviour suite runs against each:
 * the file ledger in a temporary directory, and the PostgreSQL ledger in a fresh database
 * of a real server (test/support/postgres.ts). `records()` reads what each one logged.
 */
import pg from 'pg';
import { openFileLedger, openPgLedger, readLogRecords, type Ledger } from '../../service/ledger/index.ts';
import type { LedgerRecord } from '../../service/ledger/records.ts';
import { postgresUnavailable, startPostgres, type PgServer } from './postgres.ts';
import { tempDir } from './tmp.ts';

export interface OpenedLedger {
  ledger: Ledger;
  /** Every record logged so far, in order. */
  records(): Promise<LedgerRecord[]>;
  /** Closes this ledger and opens the same store again (a restart). */
  reopen(): Promise<Ledger>;
  close(): Promise<void>;
}

export interface LedgerImpl {
  name: 'file' | 'postgres';
  /** Why this implementation cannot run here, if it cannot. */
  unavailable?: string;
  setup(): Promise<void>;
  open(opts?: { clock?: () => Date }): Promise<OpenedLedger>;
  teardown(): Promise<void>;
}

export function fileImpl(): LedgerImpl {
  const tmp = tempDir('pi-ledger-b-');
  let n = 0;
  return {
    name: 'file',
    setup: async () => {},
    async open(opts = {}) {
      const dir = `${tmp.dir}/l${n++}`;
      const o = { dir, snapshotOnClose: false, ...(opts.clock ? { clock: opts.clock } : {}) };
      let ledger = await openFileLedger(o);
      return {
        get ledger() {
          return ledger;
        },
        records: async () => (await readLogRecords(dir)).records,
        reopen: async () => {
          await ledger.close();
          ledger = await openFileLedger(o);
          return ledger;
        },
        close: () => ledger.close(),
      };
    },
    teardown: async () => tmp.cleanup(),
  };
}

export function pgImpl(): LedgerImpl {
  let server: PgServer | undefined;
  let n = 0;
  const why = postgresUnavailable();
  return {
    name: 'postgres',
    ...(why ? { unavailable: why } : {}),
    async setup() {
      server = await startPostgres();
    },
    async open(opts = {}) {
      // A fresh database per test: nothing shared between tests.
      const db = `t${n++}`;
      const admin = new pg.Client({ connectionString: server!.url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${db}`);
      await admin.end();
      const url = server!.url.replace(/\/pi$/, `/${db}`);
      const o = { url, ...(opts.clock ? { clock: opts.clock } : {}) };
      let ledger = await openPgLedger(o);
      return {
        get ledger() {
          return ledger;
        },
        records: () => ledger.records(),
        reopen: async () => {
          await ledger.close();
          ledger = await openPgLedger(o);
          return ledger;
        },
        close: () => ledger.close(),
      };
    },
    teardown: async () => server?.stop(),
  };
}
