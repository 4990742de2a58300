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
