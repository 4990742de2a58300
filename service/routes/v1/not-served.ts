import { BlockFileError } from '../../../lib/files/block-file.ts';
import { ApiError } from '../../middleware/errors.ts';

/** Clients are told to look again in an hour: the data comes with a later build, not within seconds. */
export const NOT_SERVED_RETRY_AFTER_S = 3_600;

/**
 * For an endpoint on a build that lacks its data (published before the table or file existed,
 * or with an unreadable one): 503 data_unavailable with Retry-After, nothing charged.
 */
export function notServedYet(what: string) {
  return (): never => {
    throw new ApiError('data_unavailable', `The current data build does not serve ${what} yet.`, undefined, { 'Retry-After': String(NOT_SERVED_RETRY_AFTER_S) });
  };
}

/**
 * Runs `answer`, turning a serving file that fails under it (truncated or rewritten in place
 * since it was opened: `BlockFileError`) into 503 data_unavailable rather than a 500 or a
 * partial answer.
 */
export function unlessFileFails<T>(answer: () => T, what: string): T {
  try {
    return answer();
  } catch (e) {
    if (e instanceof BlockFileError) notServedYet(what)();
    throw e;
  }
}
