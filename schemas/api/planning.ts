/** GET /flood-risk and GET /planning/constraints: requests and responses. */
import { z } from 'zod';
import { locationQuery } from './location.ts';

export const FLOOD_LOCATION = locationQuery({ forms: ['uprn', 'postcode', 'point'] });
export const FloodRiskQuerySchema = z.strictObject({ ...FLOOD_LOCATION.shape }).superRefine(FLOOD_LOCATION.refine);

export const PLANNING_LOCATION = locationQuery({ forms: ['uprn', 'point'] });
export const PlanningQuerySchema = z.strictObject({ ...PLANNING_LOCATION.shape }).superRefine(PLANNING_LOCATION.refine);

const PlaceSchema = z.object({
  kind: z.enum(['uprn', 'postcode', 'point']),
  label: z.string().meta({ description: 'the address, the postcode or "lat,lng"' }),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
});

/** Where the layers say anything (service/domain/planning-coverage.ts): England only. */
export const CoverageSchema = z
  .object({
    area: z.literal('England').meta({ description: 'the country the planning and flood layers cover (planning.data.gov.uk publishes them for England only)' }),
    covered: z.boolean().nullable().meta({ description: 'whether the place is in England (a bare point: by the nearest postcode centroid within 2 km); null for a point farther than that from every postcode' }),
    note: z.string().nullable().meta({ description: 'why the flags are null (a Welsh or Scottish place: Natural Resources Wales and SEPA flood maps are not loaded), or why a point\'s zone 1 may mean no data; null when covered' }),
  })
  .meta({ id: 'PlanningCoverage', description: 'outside England the flood zone and planning flags are null (unknown), never zone 1 or not designated' });

const LayerSchema = z.object({
  dataset: z.string().meta({ description: 'planning.data.gov.uk dataset' }),
  as_of: z.string().nullable().meta({ description: 'the date the loaded file says it covers; null when it does not say' }),
  latest_entry_date: z.string().nullable().meta({ description: 'the latest entry-date among the layer\'s features in force' }),
  features: z.number().int().meta({ description: 'features of the layer in force at the build date' }),
});

export const FloodRiskSchema = z
  .object({
    location: PlaceSchema,
    flood_zone: z.number().int().min(1).max(3).nullable().meta({ description: 'highest flood zone containing the place (for a postcode: its point); 1 when none; null without a position, and for a UPRN or postcode outside England (see coverage)' }),
    flood_zone_2: z.boolean().nullable().meta({ description: 'in zone 2, or in zone 3 (which lies within the zone-2 extent)' }),
    flood_zone_3: z.boolean().nullable(),
    areas: z.array(z.object({
      entity: z.number().int().nullable(), reference: z.string().nullable(), name: z.string().nullable(),
      flood_risk_level: z.number().int().nullable().meta({ description: '2 or 3; null when the layer gives none (sets no zone)' }),
    })).meta({ description: 'the flood-risk-zone features containing the place' }),
    postcode_addresses: z.object({
      located_addresses: z.number().int().meta({ description: 'the postcode\'s addresses with a position and known flags (in England): the denominator' }),
      zone_1: z.number().nullable(), zone_2: z.number().nullable().meta({ description: 'share whose highest zone is 2' }), zone_3: z.number().nullable(),
    }).nullable().meta({ description: 'for a postcode: the share of its addresses by highest flood zone; null otherwise' }),
    layer: LayerSchema,
    coverage: CoverageSchema,
    as_of_date: z.iso.date().meta({ description: 'the planning layer\'s as-of (its latest full date, not after the build date): features in force then, the same as on the build date' }),
  })
  .meta({ id: 'FloodRisk' });

export const PlanningConstraintsSchema = z
  .object({
    location: PlaceSchema.extend({ kind: z.enum(['uprn', 'point']) }),
    count: z.number().int(),
    constraints: z.array(z.object({
      dataset: z.string().meta({ description: 'e.g. conservation-area, article-4-direction-area, flood-risk-zone, listed-building-outline, green-belt' }),
      name: z.string().nullable(),
      reference: z.string().nullable(),
      entity: z.number().int().nullable(),
      entry_date: z.string().nullable().meta({ description: 'when planning.data.gov.uk recorded the entity' }),
      start_date: z.string().nullable(),
      flood_risk_level: z.number().int().nullable().meta({ description: 'flood-risk-zone only' }),
    })).meta({ description: 'every feature in force containing the place, by dataset; empty when none' }),
    layers: z.array(LayerSchema).meta({ description: 'every layer the build loaded, so an empty answer says what was looked at' }),
    coverage: CoverageSchema.meta({ description: 'an empty list outside England means no layer was published there, not no designation' }),
    as_of_date: z.iso.date().meta({ description: 'the planning layer\'s as-of (its latest full date, not after the build date): features in force then, the same as on the build date' }),
  })
  .meta({ id: 'PlanningConstraints' });
