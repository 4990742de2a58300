import { mapPoint } from '../../location/sets.ts';
import { SCHOOL_PHASE_FILTER, SCHOOLS_LOCATION, SchoolsQuerySchema, SchoolsSchema } from '../../../schemas/api/schools.ts';
import { haversineM } from '../../../lib/geo/points.ts';
import { aroundEcho, type AroundPoint } from '../../location/around.ts';
import { aroundOrNotFound } from '../place.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';
import { requireCovered } from '../coverage.ts';

const OPEN = new Set(['Open', 'Open, but proposed to close']);

export default defineRoute({
  method: 'GET',
  path: '/schools',
  operationId: 'getSchools',
  summary: 'Nearest schools with phase and inspection rating',
  description:
    'The nearest schools (GIAS establishments) to a UPRN, postcode or point, nearest first, within `max_distance_m`; open ones unless `include_closed`. ' +
    'Ofsted rating and date where the extract carries them (null otherwise). GIAS covers England: a Welsh or Scottish place is a free 404 not_covered.',
  tag: 'Location',
  cost: 2,
  query: SchoolsQuerySchema,
  response: SchoolsSchema,
  needsBuild: true,
  mayNotFind: true,
  mayNotCover: true,
  handler: async ({ query, data }) => {
    const set = await data.schools.get().catch(notServedYet('GET /schools'));
    if (!set) return notServedYet('GET /schools')();
    const place = (await aroundOrNotFound(query, SCHOOLS_LOCATION, data, query.max_distance_m)) as AroundPoint; // the schema takes no outcode
    await requireCovered('gias', place, data);
    const phases = new Set<string>(SCHOOL_PHASE_FILTER[query.phase]);
    const found: { i: number; d: number }[] = [];
    set.schools.forEach((s, i) => {
      if (!phases.has(s.phase) || (!query.include_closed && !OPEN.has(s.status))) return;
      const d = haversineM(place.lat, place.lng, set.lat[i]!, set.lng[i]!);
      if (d <= query.max_distance_m) found.push({ i, d });
    });
    found.sort((a, b) => a.d - b.d || set.schools[a.i]!.urn - set.schools[b.i]!.urn);
    const schools = found.slice(0, query.limit).map(({ i, d }) => {
      const s = set.schools[i]!;
      return {
        urn: s.urn, name: s.name, phase: s.phase, type: s.type, distance_m: Math.round(d), location: mapPoint(set.lat[i], set.lng[i]), pupils: s.pupils, capacity: s.capacity,
        ofsted_rating: s.ofsted_rating, ofsted_date: s.ofsted_date, status: s.status,
        age_range: s.low_age !== null && s.high_age !== null ? `${s.low_age}-${s.high_age}` : null, postcode: s.postcode,
      };
    });
    return {
      location: aroundEcho(place),
      count: schools.length,
      schools,
      source: { name: 'Get Information About Schools (GIAS)', as_of: set.asOf },
    };
  },
});
