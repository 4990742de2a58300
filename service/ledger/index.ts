/** The credit ledger: the interface (types.ts), the file and PostgreSQL implementations, the rate limiters. */
export type * from './types.ts';
export { openFileLedger, ledgerDir, LEDGER_RETRY_MS, type FileLedger, type FileLedgerOptions, type OpenReport } from './file-ledger.ts';
export { LedgerError, LedgerUnavailableError, type LedgerErrorCode } from './errors.ts';
export { LedgerLockedError } from './lock.ts';
export { LedgerCorruptError, readLogRecords } from './segments.ts';
export { startAdminServer, adminRequest, adminSocketPath, AdminRequestError } from './admin-socket.ts';
export { openPgLedger, type PgLedger, type PgLedgerOptions } from './pg-ledger.ts';
export { pgRateLimiter, type PgRateLimiter } from './pg-rate-limiter.ts';
export { inProcessLimiter, RateLimiterUnavailableError, type RateLimiter } from './rate-limiter.ts';
export { openConfiguredLedger, type OpenedLedger } from './open.ts';
