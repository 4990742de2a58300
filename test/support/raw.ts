import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The shared real samples live beside the project root, never inside it. */
export const RAW_DIR = resolve(import.meta.dirname, '../../../shared/data/raw');

/** Absolute path of a sample under ../shared/data/raw. */
export function rawPath(rel: string): string {
  return join(RAW_DIR, rel);
}

/**
 * Whether a sample is present. When it is not, say so once on stderr so a skipped
 * test is never silent; use with `describe.skipIf(!hasRaw(...))`.
 */
export function hasRaw(rel: string): boolean {
  const ok = existsSync(rawPath(rel));
  if (!ok) process.stderr.write(`SKIP: real sample ${rel} not found under ${RAW_DIR}; tests that need it are skipped\n`);
  return ok;
}
