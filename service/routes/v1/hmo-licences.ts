import { HMO_LICENCES_LOCATION, HmoLicencesQuerySchema, HmoLicencesSchema } from '../../../schemas/api/hmo-licences.ts';
import { aroundEcho } from '../../location/around.ts';
import type { HmoLicence } from '../../location/hmo-set.ts';
import { aroundOrNotFound } from '../place.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

export default defineRoute({
  method: 'GET',
  path: '/hmo/licences',
  operationId: 'getHmoLicences',
  summary: 'Licensed HMOs near a location (council registers)',
  description:
    'Licences from the councils\' HMO registers within `radius_m` (default 1,000, at most 5,000) of a UPRN, postcode or point, nearest first, or every licence whose postcode is in an outcode (by postcode, then reference). ' +
    'Each licence is matched to a UPRN by the address matcher (null when its address allows none) and placed at the matched address, else at its postcode. ' +
    '`status` filters on the build date: current (the default), pending, expired or all. No licence holder or manager names are kept.',
  tag: 'Risk and planning',
  cost: 2,
  query: HmoLicencesQuerySchema,
  response: HmoLicencesSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ query, data }) => {
    const set = await data.hmoLicences.get().catch(notServedYet('GET /hmo/licences'));
    if (!set) return notServedYet('GET /hmo/licences')();
    const place = await aroundOrNotFound(query, HMO_LICENCES_LOCATION, data);
    const all = set.at(place);
    const L = (x: { h: HmoLicence }) => x.h;
    const by_status = { current: 0, pending: 0, expired: 0 };
    for (const x of all) if (L(x).status) by_status[L(x).status!]++;
    const found = all.filter((x) => query.status === 'all' || L(x).status === query.status);
    const byRef = (a: { h: HmoLicence }, b: { h: HmoLicence }) =>
      L(a).register.localeCompare(L(b).register) || (L(a).licence_reference < L(b).licence_reference ? -1 : L(a).licence_reference > L(b).licence_reference ? 1 : 0);
    found.sort(place.kind === 'outcode'
      ? (a, b) => (L(a).postcode ?? '').localeCompare(L(b).postcode ?? '') || byRef(a, b)
      : (a, b) => a.d! - b.d! || byRef(a, b));
    const matched = found.filter((x) => L(x).uprn !== null).length;
    const registers = [...new Set(all.map((x) => L(x).register))].sort().map((register) => ({ register, as_of: set.registers.get(register) ?? null }));
    const start = (query.page - 1) * query.per_page;
    return {
      location: aroundEcho(place),
      status: query.status,
      total: found.length,
      page: query.page,
      per_page: query.per_page,
      matched,
      matched_share: found.length > 0 ? matched / found.length : null,
      by_status,
      licences: found.slice(start, start + query.per_page).map(({ h: l, d }) => {
        return {
          licence_reference: l.licence_reference, address: l.address, postcode: l.postcode, uprn: l.uprn,
          max_occupants: l.max_occupants, households: l.households, storeys: l.storeys, valid_from: l.valid_from, valid_to: l.valid_to,
          status: l.status, distance_m: d === null ? null : Math.round(d), position: l.position, location: l.location,
        };
      }),
      source: { name: 'Council HMO licence registers', registers, as_of: registers.map((r) => r.as_of).filter((a): a is string => a !== null).sort().at(-1) ?? null },
    };
  },
});
