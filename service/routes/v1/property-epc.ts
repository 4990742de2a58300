import { z } from 'zod';
import { Uprn } from '../../../schemas/api/common.ts';
import { PropertyEpcSchema } from '../../../schemas/api/property-history.ts';
import { certificateView } from '../../lookups/epc-certificates.ts';
import { sourceAsOf, sourceAsOfEntry } from '../../lookups/tables.ts';
import { SCOTLAND } from '../../domain/scotland.ts';
import { ApiError } from '../../middleware/errors.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

export default defineRoute({
  method: 'GET',
  path: '/properties/{uprn}/epc',
  operationId: 'getPropertyEpc',
  summary: 'Energy certificates of a property over time',
  description:
    'Every energy performance certificate linked to the property (its own UPRN, else the address match), newest first, with ' +
    'ratings, efficiency scores, floor area, rooms, form, age band and main fuel where the export has it. A certificate is valid ' +
    'for 10 years: `expired` is judged at the build date. A known property without a certificate is a 200 with count 0. ' +
    'Scottish homes\' certificates come from the Scottish EPC Register (source `epc_scotland`).',
  tag: 'Identity',
  cost: 1,
  params: z.strictObject({ uprn: Uprn }),
  response: PropertyEpcSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ params, data, build }) => {
    const tables = await data.lookups.get().catch(notServedYet('GET /properties/{uprn}/epc'));
    if (!tables.has.has('epc')) notServedYet('GET /properties/{uprn}/epc')();
    const uprn = Number(params.uprn);
    const record = (await data.records.get()).get(uprn);
    if (!record) throw new ApiError('not_found', `No property with UPRN ${params.uprn}.`);
    const rows = tables.epc!.get(uprn);
    // Expiry is judged on the certificates' as-of (their latest lodgement), not the build date:
    // a build made a year later answers the same (docs/api.md, Windows and as-of).
    const source = record.country === SCOTLAND ? 'epc_scotland' : 'epc';
    const asOf = sourceAsOf(build, source) ?? tables.buildDate;
    const certificates = rows.map((r) => certificateView(r, asOf));
    return {
      uprn,
      address: record.address ?? 'null', // the untyped read's text for a NULL, kept (as GET /properties/{uprn})
      postcode: record.postcode,
      count: certificates.length,
      certificates,
      as_of_date: asOf,
      source: sourceAsOfEntry(build, source),
    };
  },
});
