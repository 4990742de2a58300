// Child process for the kill test: publishes builds in a loop (tables of random size,
// written in chunks so a kill can land mid-write) until it is killed.
import { randomBytes } from 'node:crypto';
import { appendFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beginBuild, promoteBuild, pruneBuilds, writeManifest } from '../../../etl/publish/publish.ts';

const dataDir = process.argv[2]!;
process.stdout.write('ready\n');
for (;;) {
  const b = await beginBuild(dataDir, new Date());
  const tables: Record<string, { file: string; rows: number; bytes: number; sort_key: string[] }> = {};
  for (const name of ['a', 'b', 'c']) {
    const file = `${name}.parquet`;
    const chunks = 1 + (randomBytes(1)[0]! % 20);
    for (let i = 0; i < chunks; i++) appendFileSync(join(b.dir, file), randomBytes(64 * 1024));
    tables[name] = { file, rows: chunks, bytes: statSync(join(b.dir, file)).size, sort_key: ['k'] };
  }
  await writeManifest(b.dir, {
    build_id: b.id, created_at: new Date().toISOString(), schema_version: 1, sources: [], tables,
    match_rates: {}, stage_timings_ms: {}, quality: {},
  });
  await promoteBuild(dataDir, b.id);
  await pruneBuilds(dataDir, 3);
  process.stdout.write(`published ${b.id}\n`);
}
