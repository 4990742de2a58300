import { toLocation } from '../../../schemas/api/location.ts';
import { FLOOD_LOCATION, FloodRiskQuerySchema, FloodRiskSchema } from '../../../schemas/api/planning.ts';
import { share } from '../../domain/lookups.ts';
import { planningCoverage } from '../../domain/planning-coverage.ts';
import { postcodeRow } from '../../location/resolve.ts';
import { placeOrNotFound } from '../place.ts';
import { pointCoverage } from '../../location/point-country.ts';
import { areaCounts } from '../../lookups/areas.ts';
import { planningAsOfDate } from '../../lookups/tables.ts';
import { floodZone, planningLayers } from '../../lookups/planning.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

const FLOOD = 'flood-risk-zone';

export default defineRoute({
  method: 'GET',
  path: '/flood-risk',
  operationId: 'getFloodRisk',
  summary: 'Flood zones for a UPRN, postcode or point',
  description:
    'The flood zone (1, 2 or 3) with the zone-2 and zone-3 flags and the flood-risk-zone features containing the place: for a ' +
    'UPRN the ETL\'s result (the property record\'s), for a point or a postcode\'s point by the same point-in-polygon rule ' +
    '(docs/spatial.md). For a postcode also the share of its addresses by highest zone. The layer\'s name and as-of date. ' +
    'The layer is planning.data.gov.uk\'s, which covers England only: for a Welsh or Scottish UPRN or postcode the zone and flags ' +
    'are null and `coverage` says why (Natural Resources Wales and SEPA flood maps are not loaded).',
  tag: 'Risk and planning',
  cost: 2,
  query: FloodRiskQuerySchema,
  response: FloodRiskSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ query, data, build }) => {
    const [idx, t] = await Promise.all([data.planning.get().catch(notServedYet('GET /flood-risk')), data.lookups.get().catch(notServedYet('GET /flood-risk'))]);
    if (!idx || !t.has.has('area')) notServedYet('GET /flood-risk')();
    const place = await placeOrNotFound(toLocation(query, FLOOD_LOCATION), data);
    const located = place.lat !== null && place.lng !== null;
    const areas = (place.kind === 'uprn'
      ? idx!.designations.get(place.uprn!)
      : located ? idx!.points.query(place.lng!, place.lat!) : []
    ).filter((f) => f.dataset === FLOOD);
    const zone = floodZone(areas);
    // The layers cover England only: a UPRN's or postcode's country says whether the place is
    // covered; a bare point's is the nearest postcode's (none within 2 km: not determined).
    const coverage = place.kind === 'point'
      ? pointCoverage(await data.pointCountry.get().catch(notServedYet('GET /flood-risk')), place.lat!, place.lng!)
      : planningCoverage((place.kind === 'uprn' ? (await data.records.get()).get(place.uprn!)?.country : (await postcodeRow(place.postcode!, data))?.country) ?? null);
    // A UPRN without a position, or a place outside England, has unknown flags (docs/spatial.md), never zone 1.
    const known = located && coverage.covered !== false;
    let postcodeAddresses = null;
    if (place.kind === 'postcode') {
      const c = areaCounts(t, 'postcode', place.postcode!);
      const n = c?.located ?? 0;
      postcodeAddresses = {
        located_addresses: n,
        zone_1: share(c?.flood_zone_1 ?? 0, n),
        zone_2: share(c?.flood_zone_2_only ?? 0, n),
        zone_3: share(c?.flood_zone_3 ?? 0, n),
      };
    }
    return {
      location: { kind: place.kind as 'uprn' | 'postcode' | 'point', label: place.label, lat: place.lat, lng: place.lng },
      flood_zone: known ? zone : null,
      flood_zone_2: known ? zone >= 2 : null,
      flood_zone_3: known ? zone === 3 : null,
      areas: areas.map((f) => ({ entity: f.entity, reference: f.reference, name: f.name, flood_risk_level: f.flood_risk_level })),
      postcode_addresses: postcodeAddresses,
      layer: planningLayers(build, idx!, FLOOD)[0] ?? { dataset: FLOOD, as_of: null, latest_entry_date: null, features: 0 },
      coverage,
      as_of_date: planningAsOfDate(build),
    };
  },
});
