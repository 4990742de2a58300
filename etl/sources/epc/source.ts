import type { EpcRow } from '../../../../../schemas/sources/epc.ts';
import type { PricePaidRow } from '../../../../../schemas/sources/price-paid.ts';
import { readEpc } from '../../../../sources/epc.ts';
import { readScottishEpc } from '../../../../sources/epc-scotland.ts';
import { readPricePaid } from '../../../../sources/price-paid.ts';
import { same, spec } from './spec.ts';

const EPC_COLUMNS = [
    ...same<EpcRow>('VARCHAR', 'certificate_id'),
    ...same<EpcRow>('BIGINT', 'uprn'),
    ...same<EpcRow>('VARCHAR', 'address1', 'address2', 'address3', 'postcode', 'posttown', 'property_type', 'built_form'),
    ...same<EpcRow>('DOUBLE', 'total_floor_area_m2'),
    ...same<EpcRow>('INTEGER', 'number_habitable_rooms', 'current_energy_efficiency', 'potential_energy_efficiency'),
    ...same<EpcRow>('VARCHAR', 'construction_age_band', 'current_energy_rating', 'potential_energy_rating', 'tenure',
      'lodgement_date', 'inspection_date', 'region', 'country', 'main_fuel'),
];

export const epc = spec<EpcRow>({ kind: 'epc', version: 1, table: 'stg_epc', read: readEpc, columns: EPC_COLUMNS, date: (r) => r.lodgement_date });

/**
 * The Scottish register's certificates, read by their own reader into the same table: from
 * there they are matched and linked to UPRNs exactly as England and Wales certificates are.
 */
export const epcScotland = spec<EpcRow>({
  kind: 'epc_scotland', version: 1, table: 'stg_epc', read: readScottishEpc, columns: EPC_COLUMNS, date: (r) => r.lodgement_date,
});

export const pricePaid = spec<PricePaidRow>({
  kind: 'price_paid', version: 1,
  table: 'stg_price_paid',
  read: readPricePaid,
  columns: [
    ...same<PricePaidRow>('VARCHAR', 'transaction_id'),
    ...same<PricePaidRow>('BIGINT', 'price'),
    ...same<PricePaidRow>('VARCHAR', 'date', 'postcode', 'property_type'),
    ...same<PricePaidRow>('BOOLEAN', 'new_build'),
    ...same<PricePaidRow>('VARCHAR', 'tenure', 'paon', 'saon', 'street', 'locality', 'town', 'district', 'county',
      'category', 'record_status'),
  ],
  date: (r) => r.date,
});
