import { readFileSync } from 'node:fs';

/** Which malloc this process runs on: scripts/with-jemalloc.sh preloads jemalloc where installed. */
export type Allocator = 'jemalloc' | 'system';

/**
 * The allocator mapped into this process (`/proc/self/maps`, or the text given): jemalloc
 * when its library is loaded, else the system's (glibc's malloc). Where there is no
 * `/proc` (not Linux), the system's.
 */
export function allocatorInUse(maps?: string): Allocator {
  let text = maps;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/maps', 'utf8');
    } catch {
      return 'system';
    }
  }
  return /\/libjemalloc\.so[^/\n]*$/m.test(text) ? 'jemalloc' : 'system';
}
