import { z } from 'zod';
import { RentalQuerySchema, RentalValuationSchema } from '../../../schemas/api/valuation.ts';
import { Uprn } from '../../../schemas/api/common.ts';
import { RENTAL_RADII, valueRental, type RentComparable } from '../../domain/valuation/rental.ts';
import { ApiError } from '../../middleware/errors.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

const MAX_RADIUS = RENTAL_RADII[RENTAL_RADII.length - 1]!;

export default defineRoute({
  method: 'GET',
  path: '/valuations/{uprn}/rental',
  operationId: 'getRentalValuation',
  summary: 'Monthly rent from comparables by expanding radius',
  description:
    'Whole-property lets of the last 24 months with the same bedroom count (4 = four or more) within 220 m, else 670 m, else 1,300 m (the first radius with at least 5; the last with any); ' +
    'the rent is their weighted geometric mean (by distance, recency, kind and the home\'s own earlier lets), each let brought to today by the rent growth measured on the build\'s lets and to the home\'s floor area. ' +
    'Confidence from the predicted error of the rent, read from the lets used (their summed weight, spread, radius, and whether the home\'s own earlier let is among them): High at a predicted absolute log error of at most 0.0885 (about 9%), Low above 0.108 (about 11%), else Medium. ' +
    '`bedrooms` overrides the recorded count. No like let within 1,300 m is a 404 and costs nothing (docs/valuation.md).',
  tag: 'Valuations',
  cost: 3,
  params: z.strictObject({ uprn: Uprn }),
  query: RentalQuerySchema,
  response: RentalValuationSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ params, query, data }) => {
    const store = await data.store.get();
    // A build published before the valuation_evidence stage has no rent_lets: 503, nothing charged.
    if (!store.tables.has('rent_lets')) notServedYet('GET /valuations/{uprn}/rental')();
    const records = await data.records.get().catch(notServedYet('GET /valuations/{uprn}/rental'));
    const p = records.get(params.uprn);
    if (!p) throw new ApiError('not_found', `No property with UPRN ${params.uprn}.`);
    const bedrooms = query.bedrooms ?? (p.bedrooms === null || p.bedrooms === undefined ? null : Number(p.bedrooms));
    if (bedrooms === null) throw new ApiError('not_found', `UPRN ${params.uprn} has no recorded bedroom count (no energy certificate): give \`bedrooms\`.`);
    if (p.lat === null || p.lat === undefined || p.lng === null || p.lng === undefined) {
      throw new ApiError('not_found', `UPRN ${params.uprn} has no position to search around.`);
    }
    const idx = await data.rentLets.get();
    const asOfDay = Math.round(Date.parse(idx.asOf) / 86_400_000);
    const lets: RentComparable[] = [];
    idx.grid.within(Number(p.lat), Number(p.lng), MAX_RADIUS, (i, d) => {
      const area = idx.floorAreaSqft[i]!;
      lets.push({
        rent_pcm: idx.rent[i]!, bedrooms: idx.bedrooms[i]!, flat: idx.flat[i] === 1, distance_m: d, age_months: (asOfDay - idx.day[i]!) / 30.44,
        same_home: idx.uprn[i] === params.uprn, floor_area_sqft: Number.isNaN(area) ? null : area,
      });
    });
    const area = p.floor_area_sqft === null || p.floor_area_sqft === undefined ? null : Number(p.floor_area_sqft);
    const r = valueRental({ bedrooms, flat: p.property_type === 'Flat', floor_area_sqft: area }, lets, idx.growthPerMonth);
    if (r.kind === 'not_found') throw new ApiError('not_found', `No rental valuation for UPRN ${params.uprn}: ${r.reason}`);
    return { uprn: String(params.uprn), postcode: p.postcode === null || p.postcode === undefined ? null : String(p.postcode), bedrooms, ...r.estimate, as_of: idx.asOf, currency: 'GBP' as const };
  },
});
