import type { RentalEvidenceRow } from '../../../schemas/sources/rents.ts';
import { notCsv, same, source } from '../source.ts';
import { rentalEvidenceNative } from './native.ts';
import { readRentalEvidence } from './read.ts';

export const rentalEvidence = source<RentalEvidenceRow, 'rental_evidence'>({
  kind: 'rental_evidence', version: 1,
  folders: ['rents'],
  sniff: async (f) => notCsv(f) ?? ((await f.head()).startsWith('evidence_id,') || undefined),
  unclaimed: 'unknown rents layout',
  table: 'stg_rental_evidence',
  read: readRentalEvidence,
  native: rentalEvidenceNative,
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
