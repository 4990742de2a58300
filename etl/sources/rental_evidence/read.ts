import { RENTAL_EVIDENCE_HEADER, RentalEvidenceRow } from '../../../schemas/sources/rents.ts';
import { readHeadedCsv } from '../csv.ts';
import type { RejectLog } from '../rejects.ts';
import { validateRow } from '../validate.ts';

/**
 * Streams an operator-licensed rental-evidence CSV (RENTAL_EVIDENCE_HEADER, our own layout:
 * docs/sources/rents.md). Columns are found by name, so their order may differ. A repeated
 * evidence_id is rejected as `duplicate:evidence_id` (the first occurrence wins).
 */
export async function* readRentalEvidence(path: string, rejects: RejectLog): AsyncGenerator<RentalEvidenceRow> {
  const seen = new Set<string>();
  for await (const { get, line } of readHeadedCsv(path, rejects, { what: 'a rental-evidence CSV', required: RENTAL_EVIDENCE_HEADER })) {
    const candidate: Record<string, string> = {};
    for (const name of RENTAL_EVIDENCE_HEADER) candidate[name] = get(name)?.trim() ?? '';
    const row = validateRow(RentalEvidenceRow, candidate, rejects, line);
    if (!row) continue;
    if (seen.has(row.evidence_id)) {
      rejects.add('duplicate:evidence_id', line, row.evidence_id);
      continue;
    }
    seen.add(row.evidence_id);
    yield row;
  }
}
