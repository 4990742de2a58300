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
