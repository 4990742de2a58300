import { ApiError } from '../../middleware/errors.ts';

/**
 * For a served endpoint on a build that lacks its data (published before the table or file
 * existed, or with an unreadable one): 503 like a missing build, nothing charged. Endpoints
 * not served at all are declared with `pendingRoute` (routes/types.ts) instead.
 */
export function notServedYet(what: string) {
  return (): never => {
    throw new ApiError('data_unavailable', `The current data build does not serve ${what} yet.`);
  };
}
