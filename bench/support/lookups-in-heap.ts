import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOOKUP_FILES, type LookupFileName } from '../../lib/files/lookup-tables-format.ts';

/**
 * A view of a build as a build published before the lookup files (ADR 0015 step 2): its files
 * linked into `into`, its manifest without the lookup artifacts, so the service makes the
 * lookup tables in its heap as it did before. The same data either way: the paged and the
 * in-heap tables are compared on one build, side by side. `names`: only those tables' files
 * left out (the per-area ones alone: the build as served before ADR 0015 step 6).
 */
export function lookupsInHeapView(buildDir: string, into: string, names: readonly LookupFileName[] = Object.keys(LOOKUP_FILES) as LookupFileName[]): string {
  mkdirSync(into, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as { artifacts: Record<string, unknown>; build_id: string };
  const specs = names.map((n) => LOOKUP_FILES[n]);
  const files = new Set<string>(specs.map((s) => s.file));
  for (const f of readdirSync(buildDir)) if (f !== 'manifest.json' && !files.has(f)) symlinkSync(join(buildDir, f), join(into, f));
  for (const s of specs) delete manifest.artifacts[s.artifact];
  writeFileSync(join(into, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return into;
}
