import { PostcodeParamsSchema, PostcodeSchema } from '../../../schemas/api/places.ts';
import { normalisePostcode } from '../../../schemas/address-normalise.ts';
import { areaCounts, areaMixes, designationShares, latestAsOf, placeSources } from '../../lookups/areas.ts';
import { ApiError } from '../../middleware/errors.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

export default defineRoute({
  method: 'GET',
  path: '/postcodes/{postcode}',
  operationId: 'getPostcode',
  summary: 'Postcode location, country, area codes, status, address count and median price',
  description:
    'Any case and spacing. Location, country, local authority, ward, sector and outcode from the postcode directory (ONSPD, else ' +
    'Code-Point Open, else the address base); live or terminated (a terminated postcode is a 200 with its date); its addresses by ' +
    'property type and tenure; median price of their sales in the last 5 years and sales in the last 12 months, with sample sizes; ' +
    'shares of its addresses in flood zones 2 and 3, conservation areas and Article 4 areas.',
  tag: 'Location',
  cost: 1,
  params: PostcodeParamsSchema,
  response: PostcodeSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ params, data, build }) => {
    const t = await data.lookups.get().catch(notServedYet('GET /postcodes/{postcode}'));
    if (!t.has.has('area') || !t.postcodes) notServedYet('GET /postcodes/{postcode}')();
    const postcode = normalisePostcode(params.postcode)!;
    const row = t.postcodes!.first(postcode);
    if (!row) throw new ApiError('not_found', `Postcode ${postcode} is not in the postcode directory.`);
    const counts = areaCounts(t, 'postcode', postcode);
    const mix = areaMixes(t, 'postcode', postcode);
    const la = row.la_code;
    const lat = row.lat;
    const lng = row.lng;
    const sources = placeSources(build, ['onspd', 'codepoint', 'addressbase', 'price_paid', 'planning']);
    return {
      postcode,
      location: lat === null || lng === null ? null : { lat, lng },
      country: row.country,
      local_authority: { code: la, name: la === null ? null : (t.laNames.get(la) ?? null) },
      ward: row.ward,
      sector: row.sector,
      outcode: row.outcode,
      status: row.terminated === true ? ('terminated' as const) : ('live' as const),
      date_terminated: row.date_terminated,
      addresses: row.address_count ?? 0,
      property_types: mix.property_type!,
      tenures: mix.tenure!,
      median_price_5y: { value: row.median_price_5y, sample_size: row.sales_5y ?? 0 },
      sales_12m: counts?.sales_12m ?? 0,
      designations: designationShares(counts),
      as_of_date: latestAsOf(sources, t.buildDate),
      sources,
    };
  },
});
