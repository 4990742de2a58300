import { z } from 'zod';
import { anyDate, blank, optDate, optPostcode, optStr } from './fields.ts';

/**
 * EPC domestic certificates. The old opendatacommunities bulk `certificates.csv` header
 * (upper case, original order). The synthetic-region generator writes files with it; the
 * reader maps columns by name and also accepts the register and data-warehouse exports.
 */
export const EPC_ODC_HEADER = [
  'LMK_KEY',
  'ADDRESS1',
  'ADDRESS2',
  'ADDRESS3',
  'POSTCODE',
  'BUILDING_REFERENCE_NUMBER',
  'CURRENT_ENERGY_RATING',
  'POTENTIAL_ENERGY_RATING',
  'CURRENT_ENERGY_EFFICIENCY',
  'POTENTIAL_ENERGY_EFFICIENCY',
  'PROPERTY_TYPE',
  'BUILT_FORM',
  'INSPECTION_DATE',
  'LOCAL_AUTHORITY',
  'CONSTITUENCY',
  'COUNTY',
  'LODGEMENT_DATE',
  'TRANSACTION_TYPE',
  'ENVIRONMENT_IMPACT_CURRENT',
  'ENVIRONMENT_IMPACT_POTENTIAL',
  'ENERGY_CONSUMPTION_CURRENT',
  'ENERGY_CONSUMPTION_POTENTIAL',
  'CO2_EMISSIONS_CURRENT',
  'CO2_EMISS_CURR_PER_FLOOR_AREA',
  'CO2_EMISSIONS_POTENTIAL',
  'LIGHTING_COST_CURRENT',
  'LIGHTING_COST_POTENTIAL',
  'HEATING_COST_CURRENT',
  'HEATING_COST_POTENTIAL',
  'HOT_WATER_COST_CURRENT',
  'HOT_WATER_COST_POTENTIAL',
  'TOTAL_FLOOR_AREA',
  'ENERGY_TARIFF',
  'MAINS_GAS_FLAG',
  'FLOOR_LEVEL',
  'FLAT_TOP_STOREY',
  'FLAT_STOREY_COUNT',
  'MAIN_HEATING_CONTROLS',
  'MULTI_GLAZE_PROPORTION',
  'GLAZED_TYPE',
  'GLAZED_AREA',
  'EXTENSION_COUNT',
  'NUMBER_HABITABLE_ROOMS',
  'NUMBER_HEATED_ROOMS',
  'LOW_ENERGY_LIGHTING',
  'NUMBER_OPEN_FIREPLACES',
  'HOTWATER_DESCRIPTION',
  'HOT_WATER_ENERGY_EFF',
  'HOT_WATER_ENV_EFF',
  'FLOOR_DESCRIPTION',
  'FLOOR_ENERGY_EFF',
  'FLOOR_ENV_EFF',
  'WINDOWS_DESCRIPTION',
  'WINDOWS_ENERGY_EFF',
  'WINDOWS_ENV_EFF',
  'WALLS_DESCRIPTION',
  'WALLS_ENERGY_EFF',
  'WALLS_ENV_EFF',
  'SECONDHEAT_DESCRIPTION',
  'SHEATING_ENERGY_EFF',
  'SHEATING_ENV_EFF',
  'ROOF_DESCRIPTION',
  'ROOF_ENERGY_EFF',
  'ROOF_ENV_EFF',
  'MAINHEAT_DESCRIPTION',
  'MAINHEAT_ENERGY_EFF',
  'MAINHEAT_ENV_EFF',
  'MAINHEATCONT_DESCRIPTION',
  'MAINHEATC_ENERGY_EFF',
  'MAINHEATC_ENV_EFF',
  'LIGHTING_DESCRIPTION',
  'LIGHTING_ENERGY_EFF',
  'LIGHTING_ENV_EFF',
  'MAIN_FUEL',
  'WIND_TURBINE_COUNT',
  'HEAT_LOSS_CORRIDOR',
  'UNHEATED_CORRIDOR_LENGTH',
  'FLOOR_HEIGHT',
  'PHOTO_SUPPLY',
  'SOLAR_WATER_HEATING_FLAG',
  'MECHANICAL_VENTILATION',
  'ADDRESS',
  'LOCAL_AUTHORITY_LABEL',
  'CONSTITUENCY_LABEL',
  'POSTTOWN',
  'CONSTRUCTION_AGE_BAND',
  'LODGEMENT_DATETIME',
  'TENURE',
  'FIXED_LIGHTING_OUTLETS_COUNT',
  'LOW_ENERGY_FIXED_LIGHT_COUNT',
  'UPRN',
  'UPRN_SOURCE',
] as const;

/** Published property types, canonical spelling. */
export const EPC_PROPERTY_TYPES = ['House', 'Flat', 'Bungalow', 'Maisonette', 'Park home'] as const;

/** Blank → undefined; otherwise a number (a non-numeric string fails). */
const optNumber = () =>
  z.preprocess((v) => (blank(v) ? undefined : typeof v === 'string' ? Number(v.trim()) : v), z.number().optional());
const rating = () =>
  z.preprocess(
    (v) => (blank(v) ? undefined : typeof v === 'string' ? v.trim().toUpperCase() : v),
    z.enum(['A', 'B', 'C', 'D', 'E', 'F', 'G']).optional(),
  );

/**
 * One normalised certificate. Built from raw cells already mapped by column name, with the
 * register's missing-value markers (`N/A`, `NO DATA!`, `INVALID!`) turned into blanks.
 * Floor area stays in m² (the API converts); a floor area of 0 means "not recorded".
 */
export const EpcRow = z.object({
  certificate_id: z.string().trim().min(1),
  uprn: optNumber().pipe(z.number().int().positive().max(999_999_999_999).optional()),
  address1: optStr(),
  address2: optStr(),
  address3: optStr(),
  postcode: optPostcode(),
  posttown: optStr(),
  property_type: z.preprocess(
    (v) =>
      blank(v)
        ? undefined
        : (EPC_PROPERTY_TYPES.find((t) => t.toLowerCase() === String(v).trim().toLowerCase()) ?? v),
    z.enum(EPC_PROPERTY_TYPES).optional(),
  ),
  built_form: optStr(),
  total_floor_area_m2: z.preprocess(
    (v) => (blank(v) || (typeof v === 'string' && Number(v) === 0) ? undefined : typeof v === 'string' ? Number(v) : v),
    z.number().positive().optional(),
  ),
  number_habitable_rooms: optNumber().pipe(z.number().int().min(0).optional()),
  construction_age_band: optStr(),
  current_energy_rating: rating(),
  potential_energy_rating: rating(),
  current_energy_efficiency: optNumber().pipe(z.number().int().optional()),
  potential_energy_efficiency: optNumber().pipe(z.number().int().optional()),
  main_fuel: optStr(),
  tenure: optStr(),
  lodgement_date: anyDate(),
  inspection_date: optDate(),
  region: optStr(),
  country: optStr(),
});
export type EpcRow = z.infer<typeof EpcRow>;
