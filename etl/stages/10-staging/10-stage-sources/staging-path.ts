/**
 * Which reader stages the regular bulk formats: `native` (DuckDB's CSV reader and the checks
 * in SQL, `native/`) or `ts` (the TypeScript readers, the reference). Set by ETL_STAGING;
 * default native. Kinds without a native path are read by their TS reader either way.
 */
export type StagingPath = 'native' | 'ts';

export function stagingPath(env: NodeJS.ProcessEnv = process.env): StagingPath {
  const v = env.ETL_STAGING?.trim() || 'native';
  if (v !== 'native' && v !== 'ts') throw new Error(`ETL_STAGING must be native or ts, not ${v}`);
  return v;
}
