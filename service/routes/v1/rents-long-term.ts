import { LongTermRentsQuerySchema, LongTermRentsSchema } from '../../../schemas/api/rents.ts';
import { bedroomGroup, rentArea, summariseLets, type Let } from '../../domain/rents.ts';
import { MIN_LETS } from '../../../schemas/tables/market.ts';
import { ApiError } from '../../middleware/errors.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

const pence = (v: unknown) => Math.round(Number(v) * 100) / 100;

export default defineRoute({
  method: 'GET',
  path: '/rents/long-term',
  operationId: 'getLongTermRents',
  summary: 'Area long-term rents by bedrooms',
  description:
    'Whole-property lets agreed in the 24 months to the build date, by bedroom count (4 = four or more): median, mean, quartiles and sample size. ' +
    'A group of fewer than 10 lets in a sector or outcode takes the figures shrunk toward the wider area\'s (`source: shrunk`, `prior_level`); elsewhere it is marked `source: thin`. ' +
    'Location in exactly one way: `postcode` (full, answered for its sector, or a sector), `outcode`, or `lat`+`lng`+`radius_m`. docs/valuation.md.',
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
    const idx = await data.rentLets.get();
    const pick = () => {
      const lets: Let[] = [];
      const take = (i: number) => {
        if (kind !== null && idx.flat[i] !== (kind === 'flat' ? 1 : 0)) return;
        if (group !== null && bedroomGroup(idx.bedrooms[i]!) !== group) return;
        lets.push({ bedrooms: idx.bedrooms[i]!, rent_pcm: idx.rent[i]!, date: idx.date[i]! });
      };
      if (area.level === 'radius') idx.grid.within(area.lat, area.lng, area.radius_m, take);
      else (area.level === 'sector' ? idx.bySector : idx.byOutcode).get(area.code)?.forEach(take);
      return summariseLets(lets);
    };
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
    // Thin groups (fewer than MIN_LETS lets) of a sector or outcode take the rents_area mart's shrunk
    // figures, as /yields and /areas do; elsewhere (a radius, a property type) there is no wider
    // figure of the same selection, so the own figures stand, marked thin.
    const t = await data.lookups.get().catch(() => undefined);
    const shrunk = (b: number) => (area.level === 'radius' || kind !== null || !t?.has.has('area_stats') ? undefined
      : t.rows.rents.get(`${area.level}:${area.code}`).find((r) => Number(r.bedrooms) === b && r.source === 'shrunk'));
    const by_bedrooms = summary.by_bedrooms.map((g) => {
      if (g.sample_size >= MIN_LETS) return { ...g, source: 'evidence' as const, prior_level: null };
      const m = shrunk(g.bedrooms);
      if (!m) return { ...g, source: 'thin' as const, prior_level: null };
      return { ...g, median_pcm: pence(m.median_pcm), mean_pcm: pence(m.mean_pcm), p25_pcm: pence(m.p25_pcm), p75_pcm: pence(m.p75_pcm), source: 'shrunk' as const, prior_level: String(m.prior_level) };
    });
    return {
      location: area.label,
      area: { level: area.level, code: area.level === 'radius' ? null : area.code, radius_m: area.level === 'radius' ? area.radius_m : null },
      property_type: kind,
      period: { from: summary.from, to: summary.to },
      by_bedrooms,
      currency: 'GBP' as const,
    };
  },
});
