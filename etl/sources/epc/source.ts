import type { EpcRow } from '../../../schemas/sources/epc.ts';
import { notCsv, same, source, type SniffedFile } from '../source.ts';
import { epcNative } from './native.ts';
import { readEpc } from './read.ts';

/** The staged certificate columns, shared by the Scottish register (`../epc_scotland/`): both fill `stg_epc`. */
export const EPC_COLUMNS = [
    ...same<EpcRow>('VARCHAR', 'certificate_id'),
    ...same<EpcRow>('BIGINT', 'uprn'),
    ...same<EpcRow>('VARCHAR', 'address1', 'address2', 'address3', 'postcode', 'posttown', 'property_type', 'built_form'),
    ...same<EpcRow>('DOUBLE', 'total_floor_area_m2'),
    ...same<EpcRow>('INTEGER', 'number_habitable_rooms', 'current_energy_efficiency', 'potential_energy_efficiency'),
    ...same<EpcRow>('VARCHAR', 'construction_age_band', 'current_energy_rating', 'potential_energy_rating', 'tenure',
      'lodgement_date', 'inspection_date', 'region', 'country', 'main_fuel'),
];

/** Recommendations files sit beside the certificates in the `epc` folder. */
export const epcRecommendations = (f: SniffedFile) => (f.name.includes('_rr') ? { reason: 'EPC recommendations, not certificates' } : undefined);

/**
 * The Scottish register's extract has its own columns; either of its two header rows may
 * come first, both naming the One Scotland Gazetteer reference.
 */
export const isScottishHeader = (head: string) => head.includes('osg_reference_number') || head.includes('osg_uprn');

export const epc = source<EpcRow, 'epc'>({
  kind: 'epc', version: 1,
  folders: ['epc'],
  sniff: async (f) => notCsv(f) ?? epcRecommendations(f) ?? (isScottishHeader(await f.head()) ? undefined : true),
  table: 'stg_epc', read: readEpc, native: epcNative, columns: EPC_COLUMNS, date: (r) => r.lodgement_date,
});
