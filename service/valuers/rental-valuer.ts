import type { z } from 'zod';
import type { RentalValuationSchema } from '../../schemas/api/valuation.ts';
import { valueRental } from '../domain/valuation-models/rental.ts';
import type { PropertyRecords } from '../records/property-records.ts';
import type { BuildStore } from '../store/store.ts';
import { rentalLetsNear, type RentLetsIndex } from './evidence.ts';

type RentalValuation = z.input<typeof RentalValuationSchema>;
export type RentalValuationResult = { kind: 'valued'; valuation: RentalValuation } | { kind: 'not_found'; reason: string };

/**
 * Values one UPRN's monthly rent from one build's property records (bedrooms, type, floor
 * area, position) and its whole-property lets, opened together so a request never mixes two
 * builds: the shape of the HMO valuer (service/valuers/hmo-areas.ts).
 */
export class RentalValuer {
  constructor(
    private readonly records: PropertyRecords,
    private readonly lets: RentLetsIndex,
  ) {}

  /** The valuation (`bedrooms` overriding the recorded count), or why there is none. */
  value(uprn: number, bedroomsGiven: number | undefined): RentalValuationResult {
    const p = this.records.get(uprn);
    if (!p) return { kind: 'not_found', reason: `No property with UPRN ${uprn}.` };
    const bedrooms = bedroomsGiven ?? p.bedrooms;
    if (bedrooms === null) return { kind: 'not_found', reason: `UPRN ${uprn} has no recorded bedroom count (no energy certificate): give \`bedrooms\`.` };
    if (p.lat === null || p.lng === null) {
      return { kind: 'not_found', reason: `UPRN ${uprn} has no position to search around.` };
    }
    const idx = this.lets;
    const lets = rentalLetsNear(idx, p.lat, p.lng, uprn, bedrooms);
    const r = valueRental({ bedrooms, flat: p.property_type === 'Flat', floor_area_sqft: p.floor_area_sqft }, lets, idx.growthPerMonth);
    if (r.kind === 'not_found') return { kind: 'not_found', reason: `No rental valuation for UPRN ${uprn}: ${r.reason}` };
    return { kind: 'valued', valuation: { uprn, postcode: p.postcode, bedrooms, ...r.estimate, as_of: idx.asOf, currency: 'GBP' as const } };
  }
}

/** Undefined when the build cannot serve rental valuations (published before the valuation_evidence stage: no rent_lets). */
export async function openRentalValuer(store: BuildStore, records: () => Promise<PropertyRecords>, lets: () => Promise<RentLetsIndex>): Promise<RentalValuer | undefined> {
  if (!store.tables.has('rent_lets')) return undefined;
  const file = await records().catch(() => undefined);
  if (!file) return undefined;
  return new RentalValuer(file, await lets());
}
