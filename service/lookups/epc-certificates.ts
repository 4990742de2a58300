import { EPC_RATINGS, type EpcRating } from '../../schemas/api/risks.ts';
import { certificateExpiry, SQFT_PER_M2 } from '../domain/lookups.ts';
import type { EpcRow } from './tables.ts';

const rating = (v: unknown) => (EPC_RATINGS.includes(v as EpcRating) ? (v as EpcRating) : null);

/** An energy certificate row as GET /properties/{uprn}/epc shows it; `expired` judged at `asOf` (the certificates' as-of, not the build date). */
export function certificateView(r: EpcRow, asOf: string) {
  const lodged = r.lodgement_date;
  const expires = lodged === null ? null : certificateExpiry(lodged);
  const m2 = r.total_floor_area_m2;
  return {
    certificate_id: r.certificate_id,
    lodged,
    expires,
    expired: expires === null ? null : expires <= asOf,
    current_rating: rating(r.current_energy_rating),
    potential_rating: rating(r.potential_energy_rating),
    current_efficiency: r.current_energy_efficiency,
    potential_efficiency: r.potential_energy_efficiency,
    floor_area_sqft: m2 === null ? null : Math.round(m2 * SQFT_PER_M2),
    floor_area_m2: m2,
    habitable_rooms: r.number_habitable_rooms,
    property_type: r.property_type,
    build_form: r.built_form,
    construction_age: r.construction_age_band,
    main_fuel: r.main_fuel,
    occupancy: r.tenure,
  };
}
