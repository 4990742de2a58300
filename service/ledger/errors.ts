/** Errors the ledger's administrative operations raise for bad input (CLI exit 2, socket error codes). */
export type LedgerErrorCode = 'unknown_account' | 'invalid_plan_change' | 'invalid_input';

export class LedgerError extends Error {
  override readonly name = 'LedgerError';
  constructor(
    readonly code: LedgerErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The ledger cannot make a change durable (disk full, read-only file system, I/O error), so
 * the change is refused: nothing is served that is not recorded. Transient: the ledger
 * retries in the background and accepts writes again once a write succeeds.
 */
export class LedgerUnavailableError extends Error {
  override readonly name = 'LedgerUnavailableError';
  constructor(override readonly cause: Error) {
    super(`the ledger cannot record changes: ${cause.message}`);
  }
}
