import { AreaCodeParamsSchema, AreaSchema } from '../../../schemas/api/places.ts';
import { canonicalSector } from '../../../schemas/api/location.ts';
import {
  areaCounts, areaMixes, areaPrices, areaRents, areaShortTermLets, designationShares, latestAsOf, placeSources, type AreaLevel,
} from '../../lookups/areas.ts';
import { ApiError } from '../../middleware/errors.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

/** The level and canonical code of a validated area code. */
export function areaOf(code: string): { level: Exclude<AreaLevel, 'postcode'>; code: string } {
  const sector = canonicalSector(code);
  if (sector) return { level: 'sector', code: sector };
  if (/^[EWSN][0-9]{8}$/i.test(code)) return { level: 'district', code: code.toUpperCase() };
  return { level: 'outcode', code: code.toUpperCase() };
}


export default defineRoute({
  method: 'GET',
  path: '/areas/{code}',
  operationId: 'getArea',
  summary: 'Profile of a postcode sector, outcode or local authority',
  description:
    'A sector (`BS1 4`), outcode (`BS1`) or local authority GSS code (`E06000023`): addresses by type, tenure, age band and EPC ' +
    'rating; median price (12 months) and £ per sq ft (24 months) with sample sizes; index growth over 1, 5 and 10 years (from a ' +
    'wider area when the area is too thin, and `prices.index` says which); long-term rents by bedrooms with gross yields; ' +
    'short-term lets (listings, ADR, occupancy over 12 months); shares in flood zones and conservation areas; each source\'s as-of date.',
  tag: 'Location',
  cost: 2,
  params: AreaCodeParamsSchema,
  response: AreaSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ params, data, build }) => {
    const t = await data.lookups.get().catch(notServedYet('GET /areas/{code}'));
    if (!t.has.has('area')) notServedYet('GET /areas/{code}')();
    const area = areaOf(params.code);
    const counts = areaCounts(t, area.level, area.code);
    if (!counts) throw new ApiError('not_found', `No addresses in ${area.level} ${area.code}.`);
    const mix = areaMixes(t, area.level, area.code);
    const lat = counts.lat;
    const lng = counts.lng;
    const sources = placeSources(build, ['addressbase', 'epc', 'epc_scotland', 'price_paid', 'rental_evidence', 'ons_rents', 'airbnb_listings', 'planning', 'ukhpi']);
    return {
      code: area.code,
      level: area.level,
      name: area.level === 'district' ? (t.laNames.get(area.code) ?? null) : counts.post_town,
      country: counts.country,
      centroid: lat === null || lng === null ? null : { lat: Math.round(lat * 1e6) / 1e6, lng: Math.round(lng * 1e6) / 1e6 },
      addresses: counts.addresses,
      property_types: mix.property_type!,
      tenures: mix.tenure!,
      construction_ages: mix.construction_age!,
      epc_ratings: mix.epc_rating!,
      prices: areaPrices(t, area.level, area.code),
      rents: areaRents(t, area.level, area.code),
      short_term_lets: areaShortTermLets(t, area.level, area.code),
      designations: designationShares(counts),
      as_of_date: latestAsOf(sources, t.buildDate),
      sources,
    };
  },
});
