import type { EpcRow } from '../../../schemas/sources/epc.ts';
import { EPC_COLUMNS, epcRecommendations, isScottishHeader } from '../epc/source.ts';
import { notCsv, source } from '../source.ts';
import { epcScotlandNative } from './native.ts';
import { readScottishEpc } from './read.ts';

/**
 * The Scottish register's certificates, read by their own reader into the same table: from
 * there they are matched and linked to UPRNs exactly as England and Wales certificates are.
 */
export const epcScotland = source<EpcRow, 'epc_scotland'>({
  kind: 'epc_scotland', version: 1,
  folders: ['epc'],
  sniff: async (f) => notCsv(f) ?? epcRecommendations(f) ?? (isScottishHeader(await f.head()) || undefined),
  table: 'stg_epc', read: readScottishEpc, native: epcScotlandNative, columns: EPC_COLUMNS, date: (r) => r.lodgement_date,
});
