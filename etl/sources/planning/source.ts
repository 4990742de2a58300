import type { HmoRegisterRow } from '../../../../../schemas/sources/hmo-register.ts';
import type { PlanningFeature } from '../../../../../schemas/sources/planning.ts';
import type { OnsRentsRow, RentalEvidenceRow } from '../../../../../schemas/sources/rents.ts';
import type { UkHpiRow } from '../../../../../schemas/sources/ukhpi.ts';
import { readHmoRegister } from '../../../../sources/hmo-register.ts';
import { readOnsRents } from '../../../../sources/ons-rents.ts';
import { readPlanningGeoJson } from '../../../../sources/planning-geojson.ts';
import { readRentalEvidence } from '../../../../sources/rental-evidence.ts';
import { readUkHpi } from '../../../../sources/ukhpi.ts';
import { same, spec } from './spec.ts';

/** planning.data.gov.uk's entry-date when it is a date (YYYY[-MM[-DD]]), else null. */
function entryDate(v: unknown): string | null {
  return typeof v === 'string' && /^\d{4}(-\d{2}(-\d{2})?)?$/.test(v.trim()) ? v.trim() : null;
}

export const planning = spec<PlanningFeature>({
  kind: 'planning', version: 1,
  table: 'stg_planning',
  read: (path, rejects) => readPlanningGeoJson(path, rejects),
  columns: [
    ...same<PlanningFeature>('VARCHAR', 'dataset'),
    ...same<PlanningFeature>('BIGINT', 'entity'),
    ...same<PlanningFeature>('VARCHAR', 'reference', 'name', 'start_date', 'end_date'),
    ...same<PlanningFeature>('INTEGER', 'flood_risk_level'),
    ...same<PlanningFeature>('VARCHAR', 'flood_risk_type'),
    // The date the platform recorded the entity (kept in the feature's other properties by the reader).
    { name: 'entry_date', type: 'VARCHAR', get: (f) => entryDate(f.properties['entry-date']) },
    { name: 'min_lng', type: 'DOUBLE', get: (f) => f.bbox.min_lng },
    { name: 'min_lat', type: 'DOUBLE', get: (f) => f.bbox.min_lat },
    { name: 'max_lng', type: 'DOUBLE', get: (f) => f.bbox.max_lng },
    { name: 'max_lat', type: 'DOUBLE', get: (f) => f.bbox.max_lat },
    // GeoJSON geometry as text: no spatial extension here, the flag stage parses it.
    { name: 'geometry', type: 'VARCHAR', get: (f) => JSON.stringify(f.geometry) },
  ],
  date: (f) => f.start_date,
});

export const ukhpi = spec<UkHpiRow>({
  kind: 'ukhpi', version: 1,
  table: 'stg_ukhpi',
  read: readUkHpi,
  columns: [
    ...same<UkHpiRow>('VARCHAR', 'month', 'region_name', 'area_code'),
    ...same<UkHpiRow>('DOUBLE', 'average_price', 'index', 'change_1m_pct', 'change_12m_pct'),
    ...same<UkHpiRow>('INTEGER', 'sales_volume'),
    ...same<UkHpiRow>('DOUBLE', 'detached_price', 'detached_index', 'semi_detached_price', 'semi_detached_index',
      'terraced_price', 'terraced_index', 'flat_price', 'flat_index'),
  ],
  date: (r) => `${r.month}-01`,
});

export const onsRents = spec<OnsRentsRow>({
  kind: 'ons_rents', version: 1,
  table: 'stg_ons_rents',
  read: readOnsRents,
  columns: [
    ...same<OnsRentsRow>('VARCHAR', 'la_code', 'area_code', 'area_name', 'category'),
    ...same<OnsRentsRow>('INTEGER', 'bedrooms', 'count'),
    ...same<OnsRentsRow>('DOUBLE', 'mean', 'lower_quartile', 'median', 'upper_quartile'),
  ],
});

export const rentalEvidence = spec<RentalEvidenceRow>({
  kind: 'rental_evidence', version: 1,
  table: 'stg_rental_evidence',
  read: readRentalEvidence,
  columns: [
    ...same<RentalEvidenceRow>('VARCHAR', 'evidence_id', 'let_date', 'address', 'postcode'),
    ...same<RentalEvidenceRow>('BIGINT', 'uprn'),
    ...same<RentalEvidenceRow>('VARCHAR', 'property_type'),
    ...same<RentalEvidenceRow>('INTEGER', 'bedrooms'),
    ...same<RentalEvidenceRow>('VARCHAR', 'let_type'),
    ...same<RentalEvidenceRow>('DOUBLE', 'rent_pcm'),
    ...same<RentalEvidenceRow>('VARCHAR', 'furnished', 'source'),
  ],
  date: (r) => r.let_date,
});

export const hmoRegister = spec<HmoRegisterRow>({
  kind: 'hmo_register', version: 1,
  table: 'stg_hmo_register',
  read: readHmoRegister,
  columns: [
    ...same<HmoRegisterRow>('VARCHAR', 'case_number', 'address', 'postcode'),
    ...same<HmoRegisterRow>('INTEGER', 'occupants', 'units', 'storeys'),
    ...same<HmoRegisterRow>('VARCHAR', 'licence_start', 'licence_end'),
  ],
  date: (r) => r.licence_start,
});
