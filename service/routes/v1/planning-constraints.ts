import { toLocation } from '../../../schemas/api/location.ts';
import { PLANNING_LOCATION, PlanningConstraintsSchema, PlanningQuerySchema } from '../../../schemas/api/planning.ts';
import { placeOrNotFound } from '../place.ts';
import { planningCoverage } from '../../domain/planning-coverage.ts';
import { pointCoverage } from '../../location/point-country.ts';
import { featureId, planningLayers } from '../../lookups/planning.ts';
import { planningAsOfDate } from '../../lookups/tables.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

export default defineRoute({
  method: 'GET',
  path: '/planning/constraints',
  operationId: 'getPlanningConstraints',
  summary: 'Planning designations at a UPRN or point',
  description:
    'Every planning.data.gov.uk feature in force containing the property or point (conservation area, Article 4 direction, ' +
    'flood zone, listed building and any other dataset the ETL loads) with dataset, name, reference and entry date, and each ' +
    'loaded layer\'s as-of date. For a UPRN the ETL\'s result (the one the property record and risks report); for a point the ' +
    'same point-in-polygon rule. None is a 200 with an empty list. The layers cover England only: for a Welsh or Scottish home ' +
    '`coverage` says the empty list means no data.',
  tag: 'Risk and planning',
  cost: 2,
  query: PlanningQuerySchema,
  response: PlanningConstraintsSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ query, data, build }) => {
    const idx = await data.planning.get().catch(notServedYet('GET /planning/constraints'));
    if (!idx) notServedYet('GET /planning/constraints')();
    const place = await placeOrNotFound(toLocation(query, PLANNING_LOCATION), data);
    const found =
      place.kind === 'uprn'
        ? idx!.designations.get(place.uprn!).map((d) => idx!.byId.get(featureId(d)) ?? { ...d, entry_date: null, start_date: null })
        : idx!.points.query(place.lng!, place.lat!);
    const constraints = found
      .map((f) => ({
        dataset: f.dataset, name: f.name, reference: f.reference, entity: f.entity,
        entry_date: f.entry_date, start_date: f.start_date, flood_risk_level: f.flood_risk_level,
      }))
      .sort((a, b) => (a.dataset < b.dataset ? -1 : a.dataset > b.dataset ? 1 : (a.entity ?? 0) - (b.entity ?? 0)));
    return {
      location: { kind: place.kind as 'uprn' | 'point', label: place.label, lat: place.lat, lng: place.lng },
      count: constraints.length,
      constraints,
      layers: planningLayers(build, idx!),
      // The layers cover England only: for a Welsh or Scottish home an empty list is no data, and this says so.
      coverage: place.kind === 'uprn'
        ? planningCoverage((await data.records.get()).get(place.uprn!)?.country ?? null)
        : pointCoverage(await data.pointCountry.get().catch(notServedYet('GET /planning/constraints')), place.lat!, place.lng!),
      as_of_date: planningAsOfDate(build),
    };
  },
});
