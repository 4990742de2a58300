import { z } from 'zod';
import { SaleValuationSchema } from '../../../schemas/api/valuation.ts';
import { Uprn } from '../../../schemas/api/common.ts';
import { ApiError } from '../../middleware/errors.ts';
import { defineRoute } from '../types.ts';
import { notServedYet, unlessFileFails } from './not-served.ts';
import { requireCovered } from '../coverage.ts';

export default defineRoute({
  method: 'GET',
  path: '/valuations/{uprn}/sale',
  operationId: 'getSaleValuation',
  summary: 'Automated sale valuation (AVM cascade)',
  description:
    'The value today (the build\'s last index month) with bounds at 90% and 110%. High / `last_sold_growth`: the last sale brought to today with the most local area index that has enough sales, weighed against the local £ per sq ft; Medium / `sqft_estimate`: the certificate floor area × the £ per sq ft of the nearest sold homes; Low / `comparables`: the nearest 7 sold homes of the same type brought to today. A home with no usable evidence, and a Scottish home (Scottish sale prices are not open data), is a 404 saying why and costs nothing (docs/valuation.md).',
  tag: 'Valuations',
  cost: 3,
  params: z.strictObject({ uprn: Uprn }),
  response: SaleValuationSchema,
  needsBuild: true,
  mayNotFind: true,
  mayNotCover: true,
  handler: async ({ params, data }) => {
    const valuer = await data.saleValuer.get().catch(notServedYet('GET /valuations/{uprn}/sale'));
    await requireCovered('price_paid', { kind: 'uprn', label: `UPRN ${params.uprn}`, uprn: params.uprn, la_code: null, lat: null, lng: null }, data);
    const r = unlessFileFails(() => valuer.valuation(params.uprn), 'GET /valuations/{uprn}/sale');
    if (r.kind === 'not_found') throw new ApiError('not_found', r.reason);
    return r.valuation;
  },
});
