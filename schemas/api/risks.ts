import { z } from 'zod';
import { CoverageSchema } from './planning.ts';

/** EPC ratings, best first. */
export const EPC_RATINGS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
export type EpcRating = (typeof EPC_RATINGS)[number];

/**
 * Minimum energy efficiency standard for letting (England and Wales, the Energy Efficiency
 * (Private Rented Property) Regulations 2015): a privately rented home must be E or better,
 * so F and G are below it.
 */
export const MINIMUM_LETTING_RATING: EpcRating = 'E';

/** The codes of the overall `flags` list, in the order they are listed. */
export const RISK_FLAG_CODES = [
  'flood_zone_3',
  'flood_zone_2',
  'conservation_area',
  'article_4',
  'listed_building',
  'other_designation',
  'epc_below_letting_minimum',
  'no_epc',
] as const;

export const DesignationSchema = z
  .object({
    dataset: z.string().meta({ description: 'planning.data.gov.uk dataset, e.g. conservation-area, green-belt' }),
    entity: z.number().int().nullable().meta({ description: 'planning.data.gov.uk entity number' }),
    reference: z.string().nullable(),
    name: z.string().nullable(),
  })
  .meta({ id: 'Designation' });

const FloodAreaSchema = DesignationSchema.extend({
  flood_risk_level: z.number().int().nullable().meta({ description: '2 or 3; null when the layer gives none (sets no flag)' }),
});

export const RisksSchema = z
  .object({
    uprn: z.number().int(),
    address: z.string(),
    postcode: z.string(),
    flood: z.object({
      flood_zone: z.number().int().min(1).max(3).nullable().meta({ description: 'highest flood zone containing the property; 1 when none; null outside England (see coverage) or without a position' }),
      flood_zone_2: z.boolean().nullable().meta({ description: 'in flood zone 2, or in zone 3 (which lies within the zone-2 extent); null when unknown' }),
      flood_zone_3: z.boolean().nullable(),
      areas: z.array(FloodAreaSchema).meta({ description: 'the flood-risk-zone features containing the property' }),
    }),
    planning: z.object({
      conservation_area: z.boolean().nullable().meta({ description: 'in a conservation area in force; null outside England (see coverage)' }),
      article_4: z.boolean().nullable().meta({ description: 'in an Article 4 direction area in force; null outside England' }),
      listed_building: z.boolean().nullable().meta({ description: 'inside a listed building outline; null outside England' }),
      designations: z.array(DesignationSchema).meta({ description: 'every planning designation (any loaded dataset other than flood zones) containing the property' }),
    }),
    energy: z.object({
      current_rating: z.enum(EPC_RATINGS).nullable().meta({ description: 'latest certificate; null when the property has none' }),
      potential_rating: z.enum(EPC_RATINGS).nullable(),
      minimum_rating_for_letting: z.enum(EPC_RATINGS).nullable().meta({ description: 'E, the England and Wales minimum standard for letting; null for a Scottish home, where it does not apply' }),
      below_letting_minimum: z.boolean().nullable().meta({ description: 'current rating F or G; null when there is no certificate, and in Scotland' }),
    }),
    coverage: CoverageSchema,
    flags: z
      .array(z.object({ code: z.enum(RISK_FLAG_CODES), message: z.string() }))
      .meta({ description: 'every risk found, each with a short explanation; empty when none' }),
    as_of: z
      .object({
        flood: z.string().nullable(),
        planning: z.string().nullable(),
        energy: z.string().nullable(),
      })
      .meta({ description: "latest as-of date of each source's files in the build manifest (flood-risk-zone layers; other planning layers; EPC certificates: the Scottish register's for a Scottish home)" }),
    build_id: z.string(),
  })
  .meta({ id: 'Risks' });

export type Risks = z.infer<typeof RisksSchema>;
export type Designation = z.infer<typeof DesignationSchema>;
export type RiskFlag = Risks['flags'][number];
