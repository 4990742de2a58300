import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LRUCache } from 'lru-cache';
import { SearchIndex, type Ranked } from './engine.ts';
import { readSearchIndexBuffer, SEARCH_INDEX_FILE } from '../../lib/files/search-index-format.ts';

/** Reads the build's published index without blocking the event loop on the file read. */
export async function loadSearchIndex(buildDir: string, cache?: LRUCache<string, Ranked>): Promise<SearchIndex> {
  const path = join(buildDir, SEARCH_INDEX_FILE);
  return new SearchIndex(readSearchIndexBuffer(await readFile(path), path), cache);
}
