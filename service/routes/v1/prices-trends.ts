import { toLocation } from '../../../schemas/api/location.ts';
import { TRENDS_LOCATION, TrendsQuerySchema, TrendsSchema } from '../../../schemas/api/prices.ts';
import { monthText } from '../../../schemas/months.ts';
import { placeOrNotFound } from '../place.ts';
import { chosenIndex, growthChain, placeSources } from '../../lookups/areas.ts';
import { priceTrend } from '../../lookups/price-trends.ts';
import { ApiError } from '../../middleware/errors.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';
import { requireCovered } from '../coverage.ts';

type Level = 'sector' | 'outcode' | 'district' | 'country';

export default defineRoute({
  method: 'GET',
  path: '/prices/trends',
  operationId: 'getPriceTrends',
  summary: 'Area monthly index, medians, growth and volumes',
  description:
    'For a sector (`postcode=BS1 4`; a full postcode or a UPRN answers for its sector), an outcode or a local authority: the ' +
    'monthly repeat-sales index (2023-01 = 100) for up to 10 years with the area\'s median price and sales each month, and growth ' +
    'over 1, 3, 5 and 10 years. When the area has too few sales for an index of its own, the index is its nearest wider area\'s ' +
    'with enough sales, and `index_area` says which (never silently). With `property_type`, medians and sales are of that type; ' +
    'the index is of all types. docs/marts.md.',
  tag: 'Prices',
  cost: 2,
  query: TrendsQuerySchema,
  response: TrendsSchema,
  needsBuild: true,
  mayNotFind: true,
  mayNotCover: true,
  handler: async ({ query, data, build }) => {
    const t = await data.lookups.get().catch(notServedYet('GET /prices/trends'));
    if (!t.has.has('index') || !t.has.has('sales') || !t.has.has('area_stats')) notServedYet('GET /prices/trends')();
    const place = await placeOrNotFound(toLocation(query, TRENDS_LOCATION), data);
    await requireCovered('price_paid', place, data);
    const [level, code]: [Level, string | null] =
      place.kind === 'outcode' ? ['outcode', place.outcode] : place.kind === 'local_authority' ? ['district', place.la_code] : ['sector', place.sector];
    if (code === null) throw new ApiError('not_found', `No postcode sector is known for ${place.label}.`);
    const chain = growthChain(t, level, code);
    const chosen = chosenIndex(chain);
    if (!chosen) throw new ApiError('not_found', `No price index for ${level} ${code}: no matched sales there.`);
    const type = query.property_type ?? null;
    const trend = priceTrend(t, level, code, chosen, query.months, type);
    const widened = chosen.widened;
    return {
      area: { level, code },
      property_type: type,
      index_area: {
        level: chosen.used.level as Level,
        code: chosen.used.code,
        widened,
        enough_sales: chosen.enough,
        repeat_pairs: Number(chosen.row.repeat_pairs ?? 0),
        reason: widened
          ? `${level} ${code} has too few sales for an index of its own (at least 30 repeat-sale pairs and 10 sales in 12 months); the index is the ${chosen.used.level} ${chosen.used.code}'s`
          : chosen.enough ? null : `even the widest area known (${chosen.used.level} ${chosen.used.code}) has too few sales: the index is regularised towards a steady trend`,
      },
      index_base: '2023-01 = 100',
      as_of_month: monthText(trend.last),
      months: trend.months,
      growth: trend.growth,
      sales_12m: trend.sales12,
      sources: placeSources(build, ['price_paid']),
    };
  },
});
