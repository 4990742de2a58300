import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { searchIndexStage } from '../../../etl/stages/30-serving/10-search-index/stage.ts';
import { propertyRecordsStage } from '../../../etl/stages/30-serving/20-property-records/stage.ts';

/**
 * Publishes a build into `dataDir` from a staged context: the `properties` and
 * `addresses` tables as Parquet, the search index and property records written by their real stages, a manifest,
 * and `current` switched by rename as the ETL does it. (Independent of whether the
 * search stage is wired into STAGES yet.) `beforeCurrent` may change the build's files before
 * it becomes current (a test of a damaged file, without racing the build warmer).
 */
export async function publishFromContext(
  ctx: BuildContext, dataDir: string, buildId: string, beforeCurrent?: (dir: string) => void | Promise<void>,
): Promise<string> {
  const dir = join(dataDir, 'builds', buildId);
  mkdirSync(dir, { recursive: true });
  for (const t of ['properties', 'addresses']) {
    await ctx.conn.run(`COPY (SELECT * FROM ${t} ORDER BY uprn) TO '${join(dir, `${t}.parquet`)}' (FORMAT parquet, ROW_GROUP_SIZE 100000)`);
  }
  const sub: BuildContext = { ...ctx, buildDir: dir, artifacts: {} };
  await searchIndexStage.run(sub);
  await propertyRecordsStage.run(sub);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ build_id: buildId, created_at: ctx.now.toISOString(), schema_version: 1, sources: [], tables: {}, artifacts: sub.artifacts }));
  await beforeCurrent?.(dir);
  const tmp = join(dataDir, `current.${buildId}.tmp`);
  rmSync(tmp, { force: true });
  symlinkSync(join('builds', buildId), tmp);
  renameSync(tmp, join(dataDir, 'current'));
  return dir;
}
