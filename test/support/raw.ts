import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The reference documents and real samples live beside the project root, never inside it. */
export const SHARED_DIR = resolve(import.meta.dirname, '../../../shared');
export const RAW_DIR = join(SHARED_DIR, 'data/raw');

/** Absolute path of a sample under ../shared/data/raw. */
export function rawPath(rel: string): string {
  return join(RAW_DIR, rel);
}

/** Whether this run is CI's (CI=true, as CI services set it): there a contract pin may not skip. */
export const inCi = (env: NodeJS.ProcessEnv = process.env): boolean => env.CI !== undefined && !['', '0', 'false'].includes(env.CI.toLowerCase());

/**
 * Whether ../shared/<rel> is present, the one place tests decide to skip on it. When it is
 * absent, say so on stderr so a skipped test is never silent. A contract pin (`pin: true`:
 * the spec's tables) may not skip in CI: there an absent file throws, failing the test file
 * and naming what is missing. Use with `describe.skipIf(!hasShared(...))`.
 */
export function hasShared(rel: string, opts: { pin?: boolean; env?: NodeJS.ProcessEnv } = {}): boolean {
  const path = join(SHARED_DIR, rel);
  if (existsSync(path)) return true;
  if (opts.pin && inCi(opts.env)) {
    throw new Error(`${path} is missing: the contract pins are checked against ../shared/${rel} and may not skip in CI (CI=true); put the reference documents beside the project`);
  }
  process.stderr.write(`SKIP: ../shared/${rel} not found under ${SHARED_DIR}; tests that need it are skipped\n`);
  return false;
}

/** Whether a real sample under ../shared/data/raw is present (see hasShared). */
export function hasRaw(rel: string): boolean {
  return hasShared(join('data/raw', rel));
}
