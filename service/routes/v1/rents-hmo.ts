import { toLocation } from '../../../schemas/api/location.ts';
import { AREA_RENTS_LOCATION, HmoRentsQuerySchema, HmoRentsSchema } from '../../../schemas/api/rents.ts';
import { MIN_LETS } from '../../../schemas/tables/market.ts';
import { chooseArea, letsPeriod } from '../../domain/area-evidence.ts';
import { windowEndDate } from '../../lookups/tables.ts';
import { askedArea, figureChain, type RentLevel } from '../../lookups/area-rents.ts';
import { ApiError } from '../../middleware/errors.ts';
import { placeOrNotFound } from '../place.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

export default defineRoute({
  method: 'GET',
  path: '/rents/hmo',
  operationId: 'getHmoRents',
  summary: 'Area room rents',
  description:
    'Monthly rent of one room in a shared house for a sector (`postcode=BS1 4`; a full postcode or a UPRN answers for its sector), an outcode or a ' +
    `local authority: median, mean, quartiles and sample size of the room lets of the 24 months to the rental evidence's latest month (\`period\`). An area with fewer than ${MIN_LETS} room lets ` +
    'answers with the nearest wider area that has them (`from_area.widened`); where none has, the local authority\'s ONS "Room" figures, said in `source`. ' +
    'Room types and bills are null: the rental evidence records neither. docs/valuation-gdv-rents.md.',
  tag: 'Rents',
  cost: 2,
  query: HmoRentsQuerySchema,
  response: HmoRentsSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ query, data, build }) => {
    const t = await data.lookups.get().catch(notServedYet('GET /rents/hmo'));
    if (!t.has.has('room_rents')) notServedYet('GET /rents/hmo')();
    const place = await placeOrNotFound(toLocation(query, AREA_RENTS_LOCATION), data);
    const asked = askedArea(place);
    if (asked.code === null) throw new ApiError('not_found', `No postcode sector is known for ${place.label}.`);
    const area = { level: asked.level, code: asked.code };
    // Enough: the area's own lets; an ONS figure answers only when no area up to the authority has them.
    // Else (no area has enough room lets) the most local ONS figure, else the most local thin evidence.
    const chain = figureChain(t, t.rows.rooms, area, place.la_code, (rows) => rows[0]);
    const chosen = chooseArea(chain, (r) => r.source === 'evidence');
    const usable = chosen && (chosen.enough ? chosen : chooseArea(chain, (r) => r.source === 'ons_district'));
    if (!usable) throw new ApiError('not_found', `No room lets or ONS room rents for ${area.level} ${area.code} or any wider area.`);
    const r = usable.row;
    const source = r.source as 'evidence' | 'ons_district' | 'evidence_thin';
    const where = `${usable.level} ${usable.code}`;
    const note = source === 'evidence'
      ? (usable.widened ? `${area.level} ${area.code} has fewer than ${MIN_LETS} room lets; these are the ${where}'s` : null)
      : source === 'ons_district'
        ? `no area up to the local authority has ${MIN_LETS} room lets; these are the ONS "Room" figures for local authority ${r.la_code}`
        : `no area up to ${where} has ${MIN_LETS} room lets and there is no ONS figure: these rest on ${r.sample_size} lets`;
    return {
      area,
      room: {
        median_pcm: r.median_pcm!, mean_pcm: r.mean_pcm!, p25_pcm: r.p25_pcm!, p75_pcm: r.p75_pcm!,
        sample_size: r.sample_size, source, evidence_count: r.evidence_count,
      },
      from_area: { level: usable.level as RentLevel, code: usable.code, widened: usable.widened },
      thin: source !== 'evidence',
      note,
      by_room_type: null,
      bills_included_share: null,
      period: letsPeriod(windowEndDate(build, 'rental_evidence')),
      currency: 'GBP' as const,
    };
  },
});
