import type { PlanningFeature } from '../../../schemas/sources/planning.ts';
import { same, source } from '../source.ts';
import { readPlanningGeoJson } from './read.ts';

/** planning.data.gov.uk's entry-date when it is a date (YYYY[-MM[-DD]]), else null. */
function entryDate(v: unknown): string | null {
  return typeof v === 'string' && /^\d{4}(-\d{2}(-\d{2})?)?$/.test(v.trim()) ? v.trim() : null;
}

export const planning = source<PlanningFeature, 'planning'>({
  kind: 'planning', version: 2,
  folders: ['planning', 'planning_data'],
  sniff: (f) => /\.geojson(\.gz)?$/.test(f.name) || { reason: 'not GeoJSON' },
  table: 'stg_planning',
  read: (path, rejects) => readPlanningGeoJson(path, rejects),
  columns: [
    ...same<PlanningFeature>('VARCHAR', 'dataset'),
    ...same<PlanningFeature>('BIGINT', 'entity'),
    ...same<PlanningFeature>('VARCHAR', 'reference', 'name', 'start_date', 'end_date'),
    ...same<PlanningFeature>('INTEGER', 'flood_risk_level'),
    ...same<PlanningFeature>('VARCHAR', 'flood_risk_type'),
    // The date the platform recorded the entity (kept in the feature's other properties by the reader).
    { name: 'entry_date', type: 'VARCHAR', get: (f) => entryDate(f.properties['entry-date']) },
    { name: 'min_lng', type: 'DOUBLE', get: (f) => f.bbox.min_lng },
    { name: 'min_lat', type: 'DOUBLE', get: (f) => f.bbox.min_lat },
    { name: 'max_lng', type: 'DOUBLE', get: (f) => f.bbox.max_lng },
    { name: 'max_lat', type: 'DOUBLE', get: (f) => f.bbox.max_lat },
    // GeoJSON geometry as text: no spatial extension here, the flag stage parses it.
    { name: 'geometry', type: 'VARCHAR', get: (f) => JSON.stringify(f.geometry) },
  ],
  // The layer's as-of: its latest full date of any kind (recorded, started, ended), so every end
  // date up to the build date is at or before it and features in force on it are those in force
  // on the build date (spatial-flags stage; a row whose end lies after the build date is not counted).
  date: (f) => [entryDate(f.properties['entry-date']), f.start_date, f.end_date]
    .filter((d): d is string => typeof d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d)).sort().at(-1),
});
