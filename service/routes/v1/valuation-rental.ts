import { z } from 'zod';
import { RentalQuerySchema, RentalValuationSchema } from '../../../schemas/api/valuation.ts';
import { Uprn } from '../../../schemas/api/common.ts';
import { ApiError } from '../../middleware/errors.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

export default defineRoute({
  method: 'GET',
  path: '/valuations/{uprn}/rental',
  operationId: 'getRentalValuation',
  summary: 'Monthly rent from comparables by expanding radius',
  description:
    'Whole-property lets of the last 24 months with the same bedroom count (4 = four or more) within 220 m, else 670 m, else 1,300 m (the first radius with at least 5; the last with any); ' +
    'the rent is their weighted geometric mean (by distance, recency, kind and the home\'s own earlier lets), each let brought to today by the rent growth measured on the build\'s lets and to the home\'s floor area. ' +
    'Confidence from the predicted error of the rent, read from the lets used (their summed weight, spread, radius, and whether the home\'s own earlier let is among them): High at a predicted absolute log error of at most 0.0885 (about 9%), Low above 0.108 (about 11%), else Medium. ' +
    '`bedrooms` overrides the recorded count. No like let within 1,300 m is a 404 and costs nothing (docs/valuation-rental-hmo.md).',
  tag: 'Valuations',
  cost: 3,
  params: z.strictObject({ uprn: Uprn }),
  query: RentalQuerySchema,
  response: RentalValuationSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ params, query, data }) => {
    // A build published before the valuation_evidence stage has no rent_lets, or without the record file: 503, nothing charged.
    // Its lets' files unreadable: the same.
    const valuer = (await data.rentalValuer.get().catch(notServedYet('GET /valuations/{uprn}/rental'))) ?? notServedYet('GET /valuations/{uprn}/rental')();
    const r = valuer.value(params.uprn, query.bedrooms);
    if (r.kind === 'not_found') throw new ApiError('not_found', r.reason);
    return r.valuation;
  },
});
