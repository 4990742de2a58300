import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOOKUP_FILES } from '../../lib/files/lookup-tables-format.ts';

/**
 * A view of a build as a build published before the lookup files (ADR 0015 step 2): its files
 * linked into `into`, its manifest without the lookup artifacts, so the service makes the
 * lookup tables in its heap as it did before. The same data either way: the paged and the
 * in-heap tables are compared on one build, side by side.
 */
export function lookupsInHeapView(buildDir: string, into: string): string {
  mkdirSync(into, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as { artifacts: Record<string, unknown>; build_id: string };
  const files = new Set<string>(Object.values(LOOKUP_FILES).map((s) => s.file));
  for (const f of readdirSync(buildDir)) if (f !== 'manifest.json' && !files.has(f)) symlinkSync(join(buildDir, f), join(into, f));
  for (const s of Object.values(LOOKUP_FILES)) delete manifest.artifacts[s.artifact];
  writeFileSync(join(into, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return into;
}
