/** The credit ledger: the interface (types.ts) and its file-backed implementation. */
export type * from './types.ts';
export { openFileLedger, ledgerDir, LEDGER_RETRY_MS, type FileLedger, type FileLedgerOptions, type OpenReport } from './file-ledger.ts';
export { LedgerError, LedgerUnavailableError, type LedgerErrorCode } from './errors.ts';
export { LedgerLockedError } from './lock.ts';
export { LedgerCorruptError, readLogRecords } from './segments.ts';
export { startAdminServer, adminRequest, adminSocketPath, AdminRequestError } from './admin-socket.ts';
