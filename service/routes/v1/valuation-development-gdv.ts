import { DevelopmentGdvBodySchema, DevelopmentGdvSchema } from '../../../schemas/api/valuation.ts';
import { GDV_RADII_M } from '../../domain/gdv.ts';
import { parsePostcodeOrSector } from '../../domain/rents.ts';
import { ApiError } from '../../middleware/errors.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';
import { requireCovered, type PlaceForCoverage } from '../coverage.ts';

export default defineRoute({
  method: 'POST',
  path: '/valuations/development-gdv',
  operationId: 'estimateDevelopmentGdv',
  summary: 'Gross development value of a unit mix',
  description:
    'Per unit type: £ per sq ft × floor area × count. £ per sq ft is the median of new-build sales of the kind (house/flat) within the smallest radius ' +
    `(${GDV_RADII_M.join(', ')} m) holding enough, else resale £ per sq ft × the new-build premium measured on the build; × a finish factor. docs/valuation-gdv-rents.md.`,
  tag: 'Valuations',
  cost: 5,
  body: DevelopmentGdvBodySchema,
  response: DevelopmentGdvSchema,
  needsBuild: true,
  mayNotFind: true,
  mayNotCover: true,
  handler: async ({ body, data }) => {
    const store = await data.store.get();
    if (!store.tables.has('sqft_sales')) notServedYet('POST /valuations/development-gdv')();
    let site: { lat: number; lng: number };
    let place: PlaceForCoverage;
    if (body.uprn !== undefined) {
      const p = (await data.records.get()).get(body.uprn);
      if (!p || p.lat === null) throw new ApiError('not_found', `No property with UPRN ${body.uprn}.`);
      // The properties contract rules out a NULL lat or lng ("located in the UK"): the 0 cannot be reached.
      site = { lat: p.lat, lng: p.lng ?? 0 };
      place = { kind: 'uprn', label: `UPRN ${body.uprn}`, uprn: body.uprn, la_code: null, ...site };
    } else if (body.postcode !== undefined) {
      const pc = parsePostcodeOrSector(body.postcode).full!;
      const p = (await data.postcodePoints.get()).get(pc);
      if (!p) throw new ApiError('not_found', `Postcode ${pc} is not in the postcode directory (or has no position).`);
      site = p;
      place = { kind: 'postcode', label: pc, postcode: pc, la_code: null, lat: p.lat, lng: p.lng };
    } else {
      site = { lat: body.lat!, lng: body.lng! };
      place = { kind: 'point', label: `${site.lat},${site.lng}`, la_code: null, ...site };
    }
    await requireCovered('price_paid', place, data); // the GDV is priced from nearby sales
    const r = (await data.gdvValuer.get().catch(notServedYet('POST /valuations/development-gdv'))).value(site, body.units, body.finish_quality);
    if (r.kind === 'not_found') throw new ApiError('not_found', r.reason);
    return r.valuation;
  },
});
