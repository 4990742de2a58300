import { LongTermRentsQuerySchema, LongTermRentsSchema } from '../../../schemas/api/rents.ts';
import { bedroomGroup, rentArea, summariseLets } from '../../domain/rents.ts';
import { shrinkThinGroups } from '../../lookups/areas.ts';
import { letsIn } from '../../valuers/evidence.ts';
import { ApiError } from '../../middleware/errors.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

export default defineRoute({
  method: 'GET',
  path: '/rents/long-term',
  operationId: 'getLongTermRents',
  summary: 'Area long-term rents by bedrooms',
  description:
    'Whole-property lets agreed in the 24 months to the build date, by bedroom count (4 = four or more): median, mean, quartiles and sample size. ' +
    'A group of fewer than 10 lets in a sector or outcode takes the figures shrunk toward the wider area\'s (`source: shrunk`, `prior_level`); elsewhere it is marked `source: thin`. ' +
    'Location in exactly one way: `postcode` (full, answered for its sector, or a sector), `outcode`, or `lat`+`lng`+`radius_m`. docs/valuation-gdv-rents.md.',
  tag: 'Rents',
  cost: 2,
  query: LongTermRentsQuerySchema,
  response: LongTermRentsSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ query, data }) => {
    const store = await data.store.get();
    // A build published before the valuation_evidence stage has no rent_lets: 503, nothing charged.
    if (!store.tables.has('rent_lets')) notServedYet('GET /rents/long-term')();
    const area = rentArea(query);
    const kind = query.property_type ?? null;
    const group = query.bedrooms === undefined ? null : bedroomGroup(query.bedrooms);
    if (area.postcode !== null && !(await data.postcodePoints.get()).get(area.postcode)) {
      throw new ApiError('not_found', `Postcode ${area.postcode} is not in the postcode directory.`);
    }
    const idx = await data.rentLets.get().catch(notServedYet('GET /rents/long-term'));
    const pick = () => summariseLets(letsIn(idx, area, kind, group));
    let summary: ReturnType<typeof summariseLets>;
    if (area.level === 'radius') summary = pick();
    else {
      // A sector's or outcode's answer is a pure function of the build's lets: kept per build.
      const k = `${area.level}:${area.code}:${kind}:${group}`;
      const memo = data.caches.rentAreaAnswers.get(k);
      if (memo) summary = memo.summary;
      else data.caches.rentAreaAnswers.set(k, { summary: (summary = pick()) });
    }
    if (!summary) {
      const filters = [kind && `${kind}s`, group !== null && `${group === 4 ? '4+' : group} bedrooms`].filter(Boolean).join(', ');
      throw new ApiError('not_found', `No whole-property lets recorded in the last 24 months ${area.level === 'radius' ? area.label : `in ${area.label}`}${filters ? ` (${filters})` : ''}.`);
    }
    const by_bedrooms = shrinkThinGroups(summary.by_bedrooms, await data.lookups.get().catch(() => undefined), area, kind);
    return {
      location_label: area.label,
      area: { level: area.level, code: area.level === 'radius' ? null : area.code, radius_m: area.level === 'radius' ? area.radius_m : null },
      property_type: kind,
      period: { from: summary.from, to: summary.to },
      by_bedrooms,
      currency: 'GBP' as const,
    };
  },
});
