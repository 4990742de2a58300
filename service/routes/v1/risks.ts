import { z } from 'zod';
import { Uprn } from '../../../schemas/api/common.ts';
import { RisksSchema } from '../../../schemas/api/risks.ts';
import type { PROPERTY_RECORD_COLUMNS } from '../../../lib/files/record-file-format.ts';
import type { RecordOf } from '../../../lib/files/record-view.ts';
import { assembleRisks, type RiskRecord, type SourceAsOf } from '../../domain/risks.ts';
import { ApiError } from '../../middleware/errors.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

function toRecord(r: RecordOf<typeof PROPERTY_RECORD_COLUMNS>): RiskRecord {
  return {
    uprn: r.uprn,
    // Today's answer for a record without an address or postcode: the text "null", as the
    // untyped read gave (as GET /properties/{uprn}; a decision left open, issue 43).
    address: r.address ?? 'null',
    postcode: r.postcode ?? 'null',
    // Null stays null: unknown (outside England, the layers' coverage), never zone 1 or "not designated".
    flood_zone: r.flood_zone,
    flood_zone_2: r.flood_zone_2,
    flood_zone_3: r.flood_zone_3,
    conservation_area: r.conservation_area,
    article_4: r.article_4,
    listed_building: r.listed_building,
    epc_current_rating: r.epc_current_rating,
    epc_potential_rating: r.epc_potential_rating,
    country: r.country,
  };
}

function manifestSources(manifest: Record<string, unknown>): SourceAsOf[] {
  const sources = Array.isArray(manifest.sources) ? (manifest.sources as Record<string, unknown>[]) : [];
  return sources.map((s) => ({ name: String(s.name), path: String(s.path), as_of: s.as_of == null ? null : String(s.as_of) }));
}

export default defineRoute({
  method: 'GET',
  path: '/risks/{uprn}',
  operationId: 'getRisks',
  summary: 'Flood, planning designations and energy risk of a property',
  description:
    'Flood zone (1–3) and the flood areas containing the property (null flags, with the reason in `coverage`, for a home outside England: the layers are planning.data.gov.uk\'s, England only); every planning designation containing it (conservation area, ' +
    'Article 4 direction, listed building and any other loaded planning.data.gov.uk dataset) with name, reference and dataset; the ' +
    'current EPC rating and whether it is below the England and Wales minimum for letting (F or G; null in Scotland, where that standard does not apply); a list of flags with a short explanation each; ' +
    'the as-of date of each source. The flags are the ones the property record reports, computed at ETL time by point-in-polygon.',
  tag: 'Risk and planning',
  cost: 8,
  params: z.strictObject({ uprn: Uprn }),
  response: RisksSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ params, data }) => {
    // A build without the designations table or the flag columns (published before them), or
    // whose files cannot be read: 503, nothing charged.
    const risks = (await data.risks.get().catch(notServedYet('GET /risks/{uprn}'))) ?? notServedYet('GET /risks/{uprn}')();
    const row = risks.records.get(params.uprn);
    if (!row) throw new ApiError('not_found', `No property with UPRN ${params.uprn}.`);
    return assembleRisks(toRecord(row), risks.designations.get(params.uprn), manifestSources(risks.build.manifest), risks.build.id);
  },
});
