import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { STR_MARKET_AREAS_FILE, STR_MARKET_CELLS_FILE, STR_MARKET_ROWS_FILE } from '../../lib/files/str-market-file.ts';

/**
 * A view of a build as a build published before the STR market files (ADR 0015 step 6): its
 * files linked into `into`, its manifest without the str-market artifacts, so the service
 * loads the market set into its heap as it did before (as lookups-in-heap.ts does for the
 * lookup files). The same data either way: files and heap compared on one build.
 */
export function strInHeapView(buildDir: string, into: string): string {
  const specs = [STR_MARKET_ROWS_FILE, STR_MARKET_CELLS_FILE, STR_MARKET_AREAS_FILE];
  mkdirSync(into, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as { artifacts: Record<string, unknown> };
  const files = new Set<string>(specs.map((s) => s.file));
  for (const f of readdirSync(buildDir)) if (f !== 'manifest.json' && !files.has(f)) symlinkSync(join(buildDir, f), join(into, f));
  for (const s of specs) delete manifest.artifacts[s.artifact];
  writeFileSync(join(into, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return into;
}
