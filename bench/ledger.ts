/**
 * Durable charges per second (reserve + commit, each acknowledged only after fsync) with
 * 1, 8 and 64 concurrent committers; group commit lets concurrent commits share an fsync.
 * Median over several runs. Then start-up time after 50,000 debits: replay versus snapshot. `npx tsx bench/ledger.ts [--seconds 2] [--runs 5] [--dir D]`
 * Writes bench/results/ledger.json. The ledger directory must be on the disk you care about
 * (a tmpfs makes fsync free and the figures meaningless); default: under ./data.
 */
import { mkdirSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openFileLedger } from '../service/ledger/file-ledger.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '2' },
    runs: { type: 'string', default: '5' },
    dir: { type: 'string', default: resolve('data/bench-ledger') },
  },
});
const seconds = Number(values.seconds);
const runs = Number(values.runs);
const base = values.dir!;
const CONCURRENCY = [1, 8, 64];
const now = new Date();

async function once(c: number, run: number): Promise<{ perSecond: number; recordsPerFsync: number }> {
  const dir = join(base, `c${c}-r${run}`);
  rmSync(dir, { recursive: true, force: true });
  const l = await openFileLedger({ dir, snapshotOnClose: false });
  const account = (await l.createAccount({ tier: 'enterprise' }, now)).account.account_id;
  const before = l.stats();
  let done = 0;
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: c }, async (_, w) => {
      for (let i = 0; performance.now() < deadline; i++) {
        const r = l.reserve(account, 1, now);
        if (!r.ok) throw new Error('reserve refused');
        await l.commit(r.reservation, { endpoint: 'GET /v1/properties/{uprn}', request_id: `w${w}-${i}` }, now);
        done++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const after = l.stats();
  await l.close();
  rmSync(dir, { recursive: true, force: true });
  return { perSecond: done / elapsed, recordsPerFsync: done / Math.max(1, after.fsyncs - before.fsyncs) };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

mkdirSync(base, { recursive: true });
const fsType = statfsSync(base).type;
const results = [];
for (const c of CONCURRENCY) {
  const samples = [];
  for (let r = 0; r < runs; r++) samples.push(await once(c, r));
  const row = {
    concurrency: c,
    charges_per_second_median: Math.round(median(samples.map((s) => s.perSecond))),
    charges_per_second_runs: samples.map((s) => Math.round(s.perSecond)),
    records_per_fsync_median: Math.round(median(samples.map((s) => s.recordsPerFsync)) * 10) / 10,
  };
  results.push(row);
  console.log(
    `concurrency ${String(c).padStart(2)}: ${row.charges_per_second_median} durable charges/s (median of ${runs} × ${seconds}s), ` +
      `${row.records_per_fsync_median} charges per fsync`,
  );
}

/** Start-up time after `records` debits: full log replay versus snapshot. */
async function startup(records: number): Promise<{ replay_ms: number; snapshot_ms: number; log_bytes: number; snapshot_bytes: number }> {
  const dir = join(base, 'startup');
  rmSync(dir, { recursive: true, force: true });
  const l = await openFileLedger({ dir, snapshotOnClose: false, snapshotEvery: Number.MAX_SAFE_INTEGER });
  const account = (await l.createAccount({ tier: 'enterprise' }, now)).account.account_id;
  let i = 0;
  await Promise.all(
    Array.from({ length: 256 }, async () => {
      while (i < records) {
        const r = l.reserve(account, 1, now);
        if (!r.ok) throw new Error('reserve refused');
        await l.commit(r.reservation, { endpoint: `GET /v1/e${i % 28}`, request_id: `s${i++}` }, now);
      }
    }),
  );
  await l.close();
  const size = (f: string) => statSync(join(dir, f)).size;
  const logBytes = size('log-000000000001.seg');
  let t = performance.now();
  const replayed = await openFileLedger({ dir }); // closes with a snapshot
  const replayMs = performance.now() - t;
  await replayed.close();
  t = performance.now();
  const fromSnap = await openFileLedger({ dir, snapshotOnClose: false });
  const snapshotMs = performance.now() - t;
  await fromSnap.close();
  const res = { replay_ms: Math.round(replayMs), snapshot_ms: Math.round(snapshotMs), log_bytes: logBytes, snapshot_bytes: size('snapshot.bin') };
  rmSync(dir, { recursive: true, force: true });
  return res;
}
const STARTUP_RECORDS = 50_000;
const start = await startup(STARTUP_RECORDS);
console.log(
  `start-up after ${STARTUP_RECORDS} debits: replay ${start.replay_ms} ms (${start.log_bytes} bytes of log), ` +
    `from snapshot ${start.snapshot_ms} ms (${start.snapshot_bytes} bytes)`,
);

rmSync(base, { recursive: true, force: true });
const out = {
  bench: 'ledger',
  at: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  cpu_model: cpus()[0]?.model ?? 'unknown',
  filesystem_magic: `0x${fsType.toString(16)}`,
  seconds_per_run: seconds,
  runs,
  results,
  startup: { records: STARTUP_RECORDS, ...start },
};
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/ledger.json', JSON.stringify(out, null, 2) + '\n');
console.log('wrote bench/results/ledger.json');
