import { z } from 'zod';
import { FieldsSelector, PropertyRecordSchema, type PropertyRecord } from '../../../schemas/api/property.ts';
import { Uprn } from '../../../schemas/api/common.ts';
import { ApiError } from '../../middleware/errors.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';
import { numOrNull as num, textOrNull as str } from '../../records/values.ts';

const bool = (v: unknown): boolean | null => (v === null || v === undefined ? null : v === true);

/**
 * A `properties` row as the spec's record. `estimate` is the sale valuation of the same build
 * (GET /valuations/{uprn}/sale's value): `service_estimate`, and over the floor area `service_sqft`.
 */
export function toPropertyRecord(r: Record<string, unknown>, estimate: number | null = null): PropertyRecord {
  const current = str(r.epc_current_rating);
  const potential = str(r.epc_potential_rating);
  return {
    uprn: Number(r.uprn),
    address: String(r.address),
    postcode: String(r.postcode),
    location: { lat: Number(r.lat), lng: Number(r.lng) },
    country: r.country as PropertyRecord['country'],
    property_type: str(r.property_type),
    build_form: str(r.built_form),
    floor_area_sqft: num(r.floor_area_sqft),
    habitable_rooms: num(r.habitable_rooms),
    bedrooms: num(r.bedrooms),
    tenure: str(r.tenure) as PropertyRecord['tenure'],
    construction_age: str(r.construction_age),
    epc: current === null && potential === null ? null : { current_rating: current, potential_rating: potential },
    service_estimate: estimate,
    service_sqft: estimate !== null && Number(r.floor_area_sqft) > 0 ? Math.round(estimate / Number(r.floor_area_sqft)) : null,
    plot_size: num(r.plot_size),
    last_sold_price: num(r.last_sold_price),
    last_sold_date: str(r.last_sold_date),
    // Null (unknown) outside England, which the planning and flood layers do not cover.
    flood_zone_2: bool(r.flood_zone_2),
    flood_zone_3: bool(r.flood_zone_3),
    conservation_area: bool(r.conservation_area),
  };
}

export default defineRoute({
  method: 'GET',
  path: '/properties/{uprn}',
  operationId: 'getProperty',
  summary: 'Merged property record',
  description: '`service_estimate` is the sale valuation\'s value (GET /valuations/{uprn}/sale) and `service_sqft` that value over the floor area; null when the home has no valuation (no usable evidence, or no floor area for `service_sqft`).',
  tag: 'Identity',
  cost: 1,
  params: z.strictObject({ uprn: Uprn }),
  query: z.strictObject({ fields: FieldsSelector.optional() }),
  response: PropertyRecordSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ params, query, data }) => {
    // A build published without the record file (or with an unreadable one): 503, nothing charged.
    const records = await data.records.get().catch(notServedYet('GET /properties/{uprn}'));
    const row = records.get(params.uprn);
    if (!row) throw new ApiError('not_found', `No property with UPRN ${params.uprn}.`);
    // The same build's sale valuation; a model that cannot open gives nulls.
    const valuer = await data.saleValuer.get().catch(() => undefined);
    const v = valuer?.value(params.uprn)?.estimate.value ?? null;
    const record = toPropertyRecord(row, v);
    if (!query.fields) return record;
    // `fields` selects a subset of the record; the document describes the whole record.
    return Object.fromEntries(query.fields.map((f) => [f, record[f as keyof PropertyRecord]])) as PropertyRecord;
  },
});
