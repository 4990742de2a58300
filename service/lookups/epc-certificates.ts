import { EPC_RATINGS, type EpcRating } from '../../schemas/api/risks.ts';
import { certificateExpiry, SQFT_PER_M2 } from '../domain/lookups.ts';
import type { Row } from './keyed.ts';
import { intOrNull as int, textOrNull as str } from '../store/values.ts';

const rating = (v: unknown) => (EPC_RATINGS.includes(v as EpcRating) ? (v as EpcRating) : null);

/** An energy certificate row as GET /properties/{uprn}/epc shows it; `expired` judged at `asOf` (the certificates' as-of, not the build date). */
export function certificateView(r: Row, asOf: string) {
  const lodged = str(r.lodgement_date);
  const expires = lodged === null ? null : certificateExpiry(lodged);
  const m2 = r.total_floor_area_m2 == null ? null : Number(r.total_floor_area_m2);
  return {
    certificate_id: String(r.certificate_id),
    lodged,
    expires,
    expired: expires === null ? null : expires <= asOf,
    current_rating: rating(r.current_energy_rating),
    potential_rating: rating(r.potential_energy_rating),
    current_efficiency: int(r.current_energy_efficiency),
    potential_efficiency: int(r.potential_energy_efficiency),
    floor_area_sqft: m2 === null ? null : Math.round(m2 * SQFT_PER_M2),
    floor_area_m2: m2,
    habitable_rooms: int(r.number_habitable_rooms),
    property_type: str(r.property_type),
    build_form: str(r.built_form),
    construction_age: str(r.construction_age_band),
    main_fuel: str(r.main_fuel),
    occupancy: str(r.tenure),
  };
}
