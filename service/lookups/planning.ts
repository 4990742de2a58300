import { buildIndex, type PointIndex } from '../../lib/geo/spatial-index.ts';
import type { PlanningGeometry } from '../../schemas/sources/planning.ts';
import type { BuildInfo } from '../build/source.ts';
import type { Designations } from '../records/designations.ts';
import type { BuildStore } from '../store/store.ts';

/** A planning or flood feature in force at the build date. */
export interface Feature {
  dataset: string;
  entity: number | null;
  reference: string | null;
  name: string | null;
  entry_date: string | null;
  start_date: string | null;
  flood_risk_level: number | null;
  geometry: PlanningGeometry;
}

/**
 * The build's planning features in memory: a point index (the ETL's R-tree and exact
 * point-in-polygon, lib/geo/, so a point is judged by the same rule as a UPRN), the
 * features by identity (to give a UPRN's designations their entry dates) and the per-UPRN
 * designations the ETL computed (the one result the property record and risks read).
 */
export interface PlanningIndex {
  features: readonly Feature[];
  points: PointIndex<Feature>;
  byId: ReadonlyMap<string, Feature>;
  designations: Designations;
}

export const featureId = (f: { dataset: string; entity: number | null; reference: string | null }) => `${f.dataset}|${f.entity}|${f.reference}`;

/** Loads the planning index; undefined for a build published before planning_features. */
export async function loadPlanningIndex(store: BuildStore, designations: Designations | undefined): Promise<PlanningIndex | undefined> {
  if (!store.tables.has('planning_features')) return undefined;
  if (!designations) return undefined;
  const rows = await store.rows('lookup_planning_features');
  const features: Feature[] = rows.map((r) => ({ ...r, geometry: JSON.parse(r.geometry) as PlanningGeometry }));
  return { features, points: buildIndex(features), byId: new Map(features.map((f) => [featureId(f), f])), designations };
}

/** The flood zone of a set of features containing a place: 3, 2, or 1 when none (the ETL's rule, docs/spatial.md). */
export function floodZone(features: readonly { dataset: string; flood_risk_level: number | null }[]): 1 | 2 | 3 {
  const levels = features.filter((f) => f.dataset === 'flood-risk-zone').map((f) => f.flood_risk_level ?? 0);
  return levels.includes(3) ? 3 : levels.includes(2) ? 2 : 1;
}

/**
 * Every planning layer the build loaded (its manifest's planning files, named by dataset) and
 * every dataset among the features: the file's as-of date, the latest entry date of its
 * features in force, and how many there are.
 */
export function planningLayers(build: BuildInfo, idx: PlanningIndex, only?: string) {
  const sources = Array.isArray(build.manifest.sources) ? (build.manifest.sources as Record<string, unknown>[]) : [];
  const asOf = new Map<string, string | null>();
  for (const s of sources) {
    if (s.name !== 'planning') continue;
    const dataset = String(s.path).split('/').pop()!.replace(/\.(geo)?json(\.gz)?$/i, '');
    const d = s.as_of == null ? null : String(s.as_of);
    const prev = asOf.get(dataset) ?? null;
    asOf.set(dataset, prev === null || (d !== null && d > prev) ? d : prev);
  }
  const datasets = new Set([...asOf.keys(), ...idx.features.map((f) => f.dataset)]);
  return [...datasets].filter((d) => only === undefined || d === only).sort().map((dataset) => {
    const mine = idx.features.filter((f) => f.dataset === dataset);
    const entries = mine.map((f) => f.entry_date).filter((d): d is string => d !== null).sort();
    return { dataset, as_of: asOf.get(dataset) ?? null, latest_entry_date: entries.at(-1) ?? null, features: mine.length };
  });
}
