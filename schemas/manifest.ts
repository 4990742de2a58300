import { z } from 'zod';

/**
 * `manifest.json` of a published build: what the ETL read, what it wrote, what it
 * refused and how long each stage took. Written last into the build folder; a build
 * folder without a valid manifest is not a build. The service reads `build_id` and the
 * sources' `as_of` dates from it.
 */
export const ManifestSource = z.object({
  name: z.string(),
  path: z.string(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  as_of: z.string().nullable(),
  rows_read: z.number().int().nonnegative(),
  rows_rejected: z.number().int().nonnegative(),
  rejected_by_reason: z.record(z.string(), z.number().int().nonnegative()),
  /** Loaded from the staging cache (the same bytes staged by the same reader in an earlier build). */
  from_cache: z.boolean().optional(),
});

/**
 * A source's as-of (etl/pipeline/source-as-of.ts): its latest complete month in the build, where
 * every window over it ends, and how that month was decided.
 */
export const SourceAsOf = z.object({
  month: z.string().regex(/^\d{4}-\d{2}$/).nullable(),
  /** The latest date of its rows (not after the build date) that decided the month. */
  date: z.string().nullable(),
  decided_by: z.string(),
});
export type SourceAsOf = z.infer<typeof SourceAsOf>;

export const ManifestTable = z.object({
  file: z.string(),
  rows: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  sort_key: z.array(z.string()),
  /** What the file's content is a function of (etl/pipeline/write-tables.ts): a later build with the same key links this file. */
  content_key: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  /** The file's SHA-256, checked before a later build links it. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
});

/** A non-table file a build publishes (e.g. the search index), verified like a table. */
export const ManifestArtifact = z.object({
  file: z.string(),
  bytes: z.number().int().nonnegative(),
  description: z.string(),
});

export const Manifest = z.object({
  build_id: z.string().regex(/^\d{8}T\d{6}Z-[0-9a-f]{6}$/),
  created_at: z.string(),
  schema_version: z.literal(1),
  sources: z.array(ManifestSource),
  /** Each source kind's as-of, by kind (absent in builds made before windows ended at the data). */
  source_as_of: z.record(z.string(), SourceAsOf).default({}),
  tables: z.record(z.string(), ManifestTable),
  artifacts: z.record(z.string(), ManifestArtifact).default({}),
  match_rates: z.record(z.string(), z.number()).default({}),
  stage_timings_ms: z.record(z.string(), z.number().nonnegative()).default({}),
  quality: z.record(z.string(), z.unknown()).default({}),
});
export type Manifest = z.infer<typeof Manifest>;
/** What a writer supplies: fields with defaults may be left out. */
export type ManifestInput = z.input<typeof Manifest>;
