import type { HmoRegisterRow } from '../../../schemas/sources/hmo-register.ts';
import { notCsv, same, source } from '../source.ts';
import { readHmoRegister } from './read.ts';

export const hmoRegister = source<HmoRegisterRow, 'hmo_register'>({
  kind: 'hmo_register', version: 1,
  folders: ['hmo'],
  sniff: (f) => notCsv(f) ?? true,
  table: 'stg_hmo_register',
  read: readHmoRegister,
  columns: [
    ...same<HmoRegisterRow>('VARCHAR', 'case_number', 'address', 'postcode'),
    ...same<HmoRegisterRow>('INTEGER', 'occupants', 'units', 'storeys'),
    ...same<HmoRegisterRow>('VARCHAR', 'licence_start', 'licence_end'),
  ],
  date: (r) => r.licence_start,
});
