import { CRIME_LOCATION, CrimeQuerySchema, CrimeSchema } from '../../../schemas/api/crime.ts';
import { crimeCounts, per1000 } from '../../domain/crime.ts';
import { ApiError } from '../../middleware/errors.ts';
import { aroundEcho, type AroundPoint } from '../../location/around.ts';
import { aroundOrNotFound } from '../place.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';
import { requireCovered } from '../coverage.ts';

export default defineRoute({
  method: 'GET',
  path: '/crime',
  operationId: 'getCrime',
  summary: 'Street-level crime by category near a point, last 12 months',
  description:
    'Crimes police.uk published for the last 12 months within `radius_m` (default 800, at most 1,600) of a UPRN, postcode or point, by category and month, ' +
    'with the rate per 1,000 addresses beside the local authority\'s. Positions are police.uk\'s anonymised snap points, so counts near the edge of a radius are approximate. ' +
    'A location no police.uk force covers (Scotland) is a free 404 not_covered.',
  tag: 'Location',
  cost: 2,
  query: CrimeQuerySchema,
  response: CrimeSchema,
  needsBuild: true,
  mayNotFind: true,
  mayNotCover: true,
  handler: async ({ query, data }) => {
    const set = await data.crime.get().catch(notServedYet('GET /crime'));
    if (!set) return notServedYet('GET /crime')();
    const place = (await aroundOrNotFound(query, CRIME_LOCATION, data)) as AroundPoint; // the schema takes no outcode
    await requireCovered('police_uk', place, data);
    const found = set.within(place.lat, place.lng, place.radius_m);
    const addresses = set.addressesWithin(place.lat, place.lng, place.radius_m);
    const laCode = place.la_code ?? set.nearestLa(place.lat, place.lng);
    const la = laCode ? set.la(laCode) : undefined;
    if (found.month.length === 0 && !la) throw new ApiError('not_found', `No police.uk street-level crime covers ${place.label} (police.uk has no Scottish force).`);
    const counts = crimeCounts(found.month.map((_m: number, i: number) => i), found.month, found.type, set.months);
    return {
      location: aroundEcho({ ...place, la_code: laCode }),
      months: set.months,
      ...counts,
      rate: { crimes: counts.total, addresses, per_1000_addresses: per1000(counts.total, addresses) },
      local_authority: la ? { la_code: laCode!, crimes: la.crimes, addresses: la.addresses, months: la.months, per_1000_addresses: per1000(la.crimes, la.addresses) } : null,
      positions: 'police.uk anonymised snap points: each crime is moved to the nearest of a set of points on streets, never the exact place',
      unplaced_in_local_authority: laCode ? set.unplaced(laCode) : 0,
      source: { name: 'police.uk street-level crime', as_of: set.months.at(-1)!, latest_release: set.latestRelease },
    };
  },
});
