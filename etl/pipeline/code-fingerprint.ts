import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');
const IMPORT_RE = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * SHA-256 of the code that produces a cached result: every entry module, every module it
 * imports by relative path (transitively), and every `.sql` file in the folder of any of
 * those modules (statements are loaded by name, not imported; a module's SQL sits beside
 * it, as the native staging checks sit beside stage-native.ts). A cache keyed by it cannot outlive an
 * edit to that code, so a forgotten manual version bump costs a re-stage, never stale rows.
 * Package code is not walked: callers add the versions that matter (DuckDB's) to their keys.
 * `seenFiles` collects the files hashed (for tests).
 */
export function codeFingerprint(entries: readonly string[], seenFiles?: string[]): string {
  const seen = new Set<string>();
  const queue = entries.map((e) => resolve(e));
  const folders = new Set<string>();
  const h = createHash('sha256');
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    seenFiles?.push(file);
    const text = readFileSync(file, 'utf8');
    h.update(`${relative(ROOT, file)}\0${text}\0`);
    if (!file.endsWith('.ts')) continue;
    for (const m of text.matchAll(IMPORT_RE)) queue.push(resolve(dirname(file), m[1]!));
    if (folders.has(dirname(file))) continue;
    folders.add(dirname(file));
    for (const f of readdirSync(dirname(file))) if (f.endsWith('.sql')) queue.push(join(dirname(file), f));
  }
  return h.digest('hex');
}
