import type { Location, LocationInput, LocationOptions } from '../../schemas/api/location.ts';
import type { BuildResources } from '../build/resources.ts';
import { aroundPlace, type Around } from '../location/around.ts';
import { resolveLocation, type Place } from '../location/resolve.ts';
import { ApiError } from '../middleware/errors.ts';

/** The place a validated location names in the build, or 404 not_found saying why not. */
export async function placeOrNotFound(loc: Location, data: BuildResources): Promise<Place> {
  const place = await resolveLocation(loc, data);
  if ('notFound' in place) throw new ApiError('not_found', place.notFound);
  return place;
}

/** The point and radius (or outcode) a point-and-radius query searches, or 404 not_found saying why not. */
export async function aroundOrNotFound(query: LocationInput, opts: LocationOptions, data: BuildResources, radius?: number): Promise<Around> {
  const around = await aroundPlace(query, opts, data, radius);
  if ('notFound' in around) throw new ApiError('not_found', around.notFound);
  return around;
}
