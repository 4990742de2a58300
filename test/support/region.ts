import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BuildContext } from '../../etl/pipeline/context.ts';
import { discoverSources } from '../../etl/pipeline/discover.ts';
import { SOURCES } from '../../etl/sources/index.ts';
import { STAGES } from '../../etl/pipeline/stages.ts';
import { PUBLISHED_TABLES } from '../../schemas/tables/index.ts';
import { generateRegion } from '../../etl/synth/generate.ts';

const regions = new Map<string, Promise<string>>();
const folders: string[] = [];
const removeFolders = () => {
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
};
// Each test file runs in its own process: its regions go when it exits. Vitest ends its
// forked workers without an 'exit' event (two folders left in /tmp per file), so under
// vitest they go after the file's last test; the benches that import this module keep the
// exit hook.
process.on('exit', removeFolders);
if (process.env.VITEST) (await import('vitest')).afterAll(removeFolders);

/**
 * A synthetic region generated once per (addresses, seed) per test process into a temp
 * folder, for tests that need real source files (`openData`: without its AddressBase file,
 * docs/open-data.md; `zip`: the zip-shipped sources as zip archives). Returns the sources folder.
 */
export function synthRegion(addresses = 2000, seed = 11, opts: { openData?: boolean; zip?: boolean } = {}): Promise<string> {
  const key = `${addresses}:${seed}${opts.openData ? ':open' : ''}${opts.zip ? ':zip' : ''}`;
  let p = regions.get(key);
  if (!p) {
    const out = mkdtempSync(join(tmpdir(), `pi-region-${addresses}-`));
    folders.push(out);
    p = generateRegion({ out, addresses, seed, ...(opts.openData ? { addressBase: false } : {}), ...(opts.zip ? { zip: true } : {}) }).then(() => out);
    regions.set(key, p);
  }
  return p;
}

function folder(prefix: string): string {
  const f = mkdtempSync(join(tmpdir(), prefix));
  folders.push(f);
  return f;
}

export const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * A build context over an in-memory DuckDB with every core stage run on a synthetic
 * region, so a stage written later (a mart) can be tested on realistic tables.
 */
export async function stagedContext(addresses = 2000, seed = 11, now = new Date('2025-10-01T00:00:00Z')): Promise<BuildContext> {
  const sourcesDir = await synthRegion(addresses, seed);
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const { files, ignored } = await discoverSources(sourcesDir, SOURCES);
  const ctx: BuildContext = {
    db, conn, sourcesDir, buildDir: folder('pi-build-'), buildId: '20251001T000000Z-000000', now,
    today: now.toISOString().slice(0, 10), files, ignored, sources: [], published: [...PUBLISHED_TABLES], artifacts: {},
    matchRates: {}, quality: {}, log: quietLog, progress: () => undefined,
  };
  for (const stage of STAGES) await stage.run(ctx);
  return ctx;
}
