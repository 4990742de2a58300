/**
 * The ledger and rate limiter a process uses, chosen by configuration: with `LEDGER_URL`
 * (postgres://…) both live in PostgreSQL and any number of replicas share them; without it,
 * the file ledger in `DATA_DIR/ledger` (one process) and the in-process window, kept in the
 * ledger's log so it survives a restart.
 */
import { ledgerDir, openFileLedger, type FileLedger } from './file-ledger.ts';
import { openPgLedger, type PgLedger } from './pg-ledger.ts';
import { pgRateLimiter } from './pg-rate-limiter.ts';
import { ledgerBackedLimiter, type RateLimiter } from './rate-limiter.ts';

export type OpenedLedger =
  | { kind: 'file'; ledger: FileLedger; limiter: RateLimiter }
  | { kind: 'postgres'; ledger: PgLedger; limiter: RateLimiter };

export async function openConfiguredLedger(cfg: { DATA_DIR: string; LEDGER_URL?: string | undefined }, clock?: () => Date): Promise<OpenedLedger> {
  if (cfg.LEDGER_URL) {
    const ledger = await openPgLedger({ url: cfg.LEDGER_URL, ...(clock ? { clock } : {}) });
    return { kind: 'postgres', ledger, limiter: pgRateLimiter({ url: cfg.LEDGER_URL }) };
  }
  const ledger = await openFileLedger({ dir: ledgerDir(cfg.DATA_DIR), ...(clock ? { clock } : {}) });
  return { kind: 'file', ledger, limiter: ledgerBackedLimiter(ledger) };
}
