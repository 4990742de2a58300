import { RENTAL_EVIDENCE_HEADER, RentalEvidenceRow } from '../../schemas/sources/rents.ts';
import { headerIndex, readCsvRecords } from './csv.ts';
import type { RejectLog } from './rejects.ts';
import { validateRow } from './validate.ts';

/**
 * Streams an operator-licensed rental-evidence CSV (RENTAL_EVIDENCE_HEADER, our own layout:
 * docs/sources/rents.md). Columns are found by name, so their order may differ. A repeated
 * evidence_id is rejected as `duplicate:evidence_id` (the first occurrence wins).
 */
export async function* readRentalEvidence(path: string, rejects: RejectLog): AsyncGenerator<RentalEvidenceRow> {
  let col: Map<string, number> | undefined;
  const seen = new Set<string>();
  for await (const { fields, line } of readCsvRecords(path, rejects)) {
    if (!col) {
      col = headerIndex(fields).index;
      const missing = RENTAL_EVIDENCE_HEADER.filter((h) => !col!.has(h));
      if (missing.length > 0) throw new Error(`${path}: not a rental-evidence CSV (no ${missing.join(', ')} column)`);
      continue;
    }
    const candidate: Record<string, string> = {};
    for (const name of RENTAL_EVIDENCE_HEADER) candidate[name] = fields[col.get(name)!]?.trim() ?? '';
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
