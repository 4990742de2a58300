import { ApiError } from '../../middleware/errors.ts';

/**
 * Handler of a data endpoint whose query is built by a later issue: a loaded build does
 * not serve it yet, so it answers 503 like a missing build and charges nothing.
 */
export function notServedYet(what: string) {
  return (): never => {
    throw new ApiError('data_unavailable', `The current data build does not serve ${what} yet.`);
  };
}
