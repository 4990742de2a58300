import { DevelopmentGdvBodySchema, DevelopmentGdvSchema } from '../../../schemas/api/valuation.ts';
import { DEFAULT_NEW_BUILD_PREMIUM, GDV_RADII_M, expandingEvidence, gdv, type KindEvidence, type NearSale, type UnitKind } from '../../domain/gdv.ts';
import { parsePostcodeOrSector } from '../../domain/rents.ts';
import { ApiError } from '../../middleware/errors.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

const MAX_RADIUS = GDV_RADII_M.at(-1)!;

export default defineRoute({
  method: 'POST',
  path: '/valuations/development-gdv',
  operationId: 'estimateDevelopmentGdv',
  summary: 'Gross development value of a unit mix',
  description:
    'Per unit type: £ per sq ft × floor area × count. £ per sq ft is the median of new-build sales of the kind (house/flat) within the smallest radius ' +
    `(${GDV_RADII_M.join(', ')} m) holding enough, else resale £ per sq ft × the new-build premium measured on the build; × a finish factor. docs/valuation.md.`,
  tag: 'Valuations',
  cost: 5,
  body: DevelopmentGdvBodySchema,
  response: DevelopmentGdvSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ body, data }) => {
    const store = await data.store.get();
    if (!store.tables.has('sqft_sales')) notServedYet('POST /valuations/development-gdv')();
    let site: { lat: number; lng: number };
    if (body.uprn !== undefined) {
      const p = (await data.records.get()).get(body.uprn);
      if (!p || p.lat === null) throw new ApiError('not_found', `No property with UPRN ${body.uprn}.`);
      site = { lat: Number(p.lat), lng: Number(p.lng) };
    } else if (body.postcode !== undefined) {
      const pc = parsePostcodeOrSector(body.postcode).full!;
      const p = (await data.postcodePoints.get()).get(pc);
      if (!p) throw new ApiError('not_found', `Postcode ${pc} is not in the postcode directory (or has no position).`);
      site = p;
    } else {
      site = { lat: body.lat!, lng: body.lng! };
    }
    const [measured, sales] = await Promise.all([data.gdvPremiums.get(), data.sqftSales.get()]);
    // Sales within r of the site, by kind, gathered once per radius actually needed.
    const byRadius = new Map<number, Record<UnitKind, NearSale[]>>();
    const within = (r: number) => {
      let near = byRadius.get(r);
      if (!near) {
        const n: Record<UnitKind, NearSale[]> = { house: [], flat: [] };
        sales.grid.within(site.lat, site.lng, r, (i, d) => n[sales.flat[i] === 1 ? 'flat' : 'house'].push({ d, new_build: sales.newBuild[i] === 1, gbp_sqft: sales.gbpSqft[i]! }));
        byRadius.set(r, (near = n));
      }
      return near;
    };
    const evidence = new Map<UnitKind, KindEvidence>();
    for (const kind of [...new Set(body.units.map((u) => u.property_type))].sort()) {
      const premium = measured.get(kind) ?? measured.get('all') ?? DEFAULT_NEW_BUILD_PREMIUM;
      const e = expandingEvidence(kind, (r) => within(r)[kind], premium);
      if (!e) throw new ApiError('not_found', `Too few ${kind} sales with a floor area within ${MAX_RADIUS / 1000} km of the site to value ${kind}s.`);
      evidence.set(kind, e);
    }
    return gdv(body.units, evidence, body.finish_quality);
  },
});
