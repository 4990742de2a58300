import { normalisePostcode } from '../../../schemas/address-normalise.ts';
import { StrEstimateBodySchema, StrEstimateSchema } from '../../../schemas/api/str.ts';
import { STR_ESTIMATE, type PropertyKind, type StrEstimateFigures } from '../../domain/str/estimate.ts';
import type { BuildResources } from '../../build/resources.ts';
import { postcodeRow } from '../../location/resolve.ts';
import { ApiError } from '../../middleware/errors.ts';
import { estimateAt } from '../../str/estimator.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

type Body = ReturnType<typeof StrEstimateBodySchema.parse>;

export interface StrEstimateResult extends StrEstimateFigures {
  location_label: string;
  currency: 'GBP';
}

interface Located {
  lat: number;
  lng: number;
  label: string | null;
  la: string | null;
  bedrooms?: number;
  property_type?: PropertyKind;
}

const round5 = (x: number) => Number(x.toFixed(5));

/** Where the property is (and, with a UPRN, what its record says about it). */
async function locate(body: Body, data: BuildResources): Promise<Located> {
  if (body.uprn !== undefined) {
    const records = await data.records.get().catch(notServedYet('POST /valuations/str-estimate'));
    const r = records.get(body.uprn);
    if (!r) throw new ApiError('not_found', `No property with UPRN ${body.uprn}.`);
    if (r.lat === null || r.lng === null) throw new ApiError('not_found', `The property with UPRN ${body.uprn} has no coordinates.`);
    const beds = r.bedrooms !== null && Number.isFinite(r.bedrooms) ? r.bedrooms : undefined;
    const type = r.property_type !== null ? (r.property_type === 'Flat' ? 'apartment' : 'house') : undefined;
    return { lat: r.lat, lng: r.lng, label: r.address ?? String(body.uprn), la: null, ...(beds !== undefined ? { bedrooms: beds } : {}), ...(type ? { property_type: type } : {}) };
  }
  if (body.postcode !== undefined) {
    const pc = normalisePostcode(body.postcode)!;
    const row = await postcodeRow(pc, data);
    if (!row || row.lat === null || row.lng === null) throw new ApiError('not_found', `No location known for postcode ${pc}.`);
    return { lat: row.lat, lng: row.lng, label: pc, la: row.la_code };
  }
  return { lat: body.lat!, lng: body.lng!, label: null, la: null };
}

export default defineRoute({
  method: 'POST',
  path: '/valuations/str-estimate',
  operationId: 'estimateShortTermLet',
  summary: '12-month short-term-let revenue projection',
  description:
    'A similarity-weighted regression over up to 100 comparable whole-home listings within 2 km (docs/str.md, "The estimate"). ' +
    '`monthly_breakdown` runs January to December at today\'s prices. 404 when the UPRN or postcode is unknown or no listing lies within 2 km.',
  tag: 'Short-term lets',
  cost: 50,
  body: StrEstimateBodySchema,
  response: StrEstimateSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ body, data }): Promise<StrEstimateResult> => {
    const index = await data.strListings.get().catch(notServedYet('POST /valuations/str-estimate'));
    const at = await locate(body, data);
    const bedrooms = body.bedrooms ?? at.bedrooms;
    if (bedrooms === undefined) {
      throw new ApiError('invalid_request', 'The property record has no bedroom count: give bedrooms.', [{ path: 'body.bedrooms', message: 'required: the property record has no bedroom count' }]);
    }
    const est = estimateAt(index, at, {
      bedrooms,
      bathrooms: body.bathrooms,
      property_type: body.property_type ?? at.property_type,
      finish_quality: body.finish_quality,
      include_comparables: body.include_comparables,
    });
    if (!est) throw new ApiError('not_found', `No short-term-let listing within ${STR_ESTIMATE.radiusM / 1000} km of the property to compare with.`);
    const label = at.label ?? `${round5(at.lat)}, ${round5(at.lng)}${est.sector ? ` (near ${est.sector})` : ''}`;
    return { location_label: label, currency: 'GBP', ...est.figures };
  },
});
