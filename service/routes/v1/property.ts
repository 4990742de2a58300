import { z } from 'zod';
import { BlockFileError } from '../../../lib/files/block-file.ts';
import { FieldsSelector, PropertyRecordSchema, type PropertyRecord } from '../../../schemas/api/property.ts';
import { Uprn } from '../../../schemas/api/common.ts';
import { ApiError } from '../../middleware/errors.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';
import type { PropertyRecord as StoredRecord } from '../../records/property-records.ts';

/**
 * A property record (the typed row of the build's record file) as the spec's record.
 * `estimate` is the sale valuation of the same build (GET /valuations/{uprn}/sale's value):
 * `service_estimate`, and over the floor area `service_sqft`.
 */
export function toPropertyRecord(r: StoredRecord, estimate: number | null = null): PropertyRecord {
  const current = r.epc_current_rating;
  const potential = r.epc_potential_rating;
  const area = r.floor_area_sqft;
  return {
    uprn: r.uprn,
    // The contract's rule "located in the UK" refuses a build with a home lacking lat or lng, so
    // the 0s cannot be reached; an address or postcode NULL would still read as the text "null",
    // as the untyped read gave (the spec's record has them as required): a decision left open.
    address: r.address ?? 'null',
    postcode: r.postcode ?? 'null',
    location: { lat: r.lat ?? 0, lng: r.lng ?? 0 },
    country: r.country as PropertyRecord['country'],
    property_type: r.property_type,
    build_form: r.built_form,
    floor_area_sqft: area,
    habitable_rooms: r.habitable_rooms,
    bedrooms: r.bedrooms,
    tenure: r.tenure as PropertyRecord['tenure'],
    construction_age: r.construction_age,
    epc: current === null && potential === null ? null : { current_rating: current, potential_rating: potential },
    service_estimate: estimate,
    service_sqft: estimate !== null && area !== null && area > 0 ? Math.round(estimate / area) : null,
    plot_size: r.plot_size,
    last_sold_price: r.last_sold_price,
    last_sold_date: r.last_sold_date,
    // Null (unknown) outside England, which the planning and flood layers do not cover.
    flood_zone_2: r.flood_zone_2,
    flood_zone_3: r.flood_zone_3,
    conservation_area: r.conservation_area,
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
    // The same build's sale valuation; a model that cannot open, or whose per-home file fails
    // under it (truncated since it opened), gives nulls.
    const valuer = await data.saleValuer.get().catch(() => undefined);
    const v = valueOrNull(() => valuer?.value(params.uprn)?.estimate.value ?? null);
    const record = toPropertyRecord(row, v);
    if (!query.fields) return record;
    // `fields` selects a subset of the record; the document describes the whole record.
    return Object.fromEntries(query.fields.map((f) => [f, record[f as keyof PropertyRecord]])) as PropertyRecord;
  },
});

function valueOrNull(value: () => number | null): number | null {
  try {
    return value();
  } catch (e) {
    if (e instanceof BlockFileError) return null;
    throw e;
  }
}
