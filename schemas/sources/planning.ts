import { z } from 'zod';
import { optStr } from './fields.ts';

/**
 * planning.data.gov.uk datasets the ETL turns into per-UPRN flags (the "feature types").
 * Names are the platform's dataset slugs, as found in each feature's `properties.dataset`.
 */
export const PLANNING_DATASETS = [
  'flood-risk-zone',
  'conservation-area',
  'article-4-direction-area',
  'listed-building-outline',
  'tree-preservation-zone',
  'green-belt',
] as const;
export type PlanningDataset = (typeof PLANNING_DATASETS)[number];

/**
 * Property names of a planning.data.gov.uk entity as the API's GeoJSON writes them
 * (hyphenated; every value a string, blank when unknown). Seen in the real samples.
 */
export const PLANNING_PROPERTY_KEYS = [
  'entry-date', 'start-date', 'end-date', 'entity', 'name', 'dataset', 'typology',
  'reference', 'prefix', 'organisation-entity', 'quality', 'notes', 'description',
] as const;

/** Extra properties of `flood-risk-zone` entities: level '2' or '3', and the source type. */
export const FLOOD_RISK_LEVEL_KEY = 'flood-risk-level';
export const FLOOD_RISK_TYPE_KEY = 'flood-risk-type';
export const FLOOD_RISK_LEVELS = [2, 3] as const;

/** [lng, lat] in WGS84 (GeoJSON order). */
export type Position = [number, number];
/** A closed linear ring: first position equals the last, at least 4 positions. */
export type Ring = Position[];
/** Exterior ring first, then holes, exactly as published. */
export type PolygonCoords = Ring[];

export type PlanningGeometry =
  | { type: 'Polygon'; coordinates: PolygonCoords }
  | { type: 'MultiPolygon'; coordinates: PolygonCoords[] };

export interface BBox {
  min_lng: number;
  min_lat: number;
  max_lng: number;
  max_lat: number;
}

/** Scalar attributes lifted out of a feature's properties; blank strings become undefined. */
export const PlanningAttrs = z
  .object({
    dataset: z.string().trim().min(1),
    entity: z.number().int().positive().optional(),
    reference: optStr(),
    name: optStr(),
    start_date: z.string().regex(/^\d{4}(-\d{2}(-\d{2})?)?$/, 'expected YYYY[-MM[-DD]]').optional(),
    end_date: z.string().regex(/^\d{4}(-\d{2}(-\d{2})?)?$/, 'expected YYYY[-MM[-DD]]').optional(),
    flood_risk_level: z.number().int().refine((n) => n === 2 || n === 3, 'expected 2 or 3').optional(),
    flood_risk_type: optStr(),
  })
  .refine((a) => a.entity !== undefined || a.reference !== undefined, {
    message: 'feature has neither entity nor reference',
    path: ['id'],
  });
export type PlanningAttrs = z.infer<typeof PlanningAttrs>;

/** One polygon feature as the ETL's spatial stage consumes it. */
export type PlanningFeature = PlanningAttrs & {
  /** The remaining properties, values as published. */
  properties: Record<string, unknown>;
  geometry: PlanningGeometry;
  bbox: BBox;
};
