import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LRUCache } from 'lru-cache';
import type { BlockCache } from '../../lib/files/block-file.ts';
import { SearchIndex, type Ranked } from './engine.ts';
import { readSearchIndexBuffer, SEARCH_INDEX_FILE } from '../../lib/files/search-index-format.ts';

/**
 * The build's published index. With `pages` (the service: the build's block cache), read where
 * it lies: only its vocabulary and postcodes in the heap (issue 46, ADR 0015 step 3). Without,
 * read whole into the heap, without blocking the event loop on the file read (the bench's
 * in-heap reader).
 */
export async function loadSearchIndex(buildDir: string, cache?: LRUCache<string, Ranked>, pages?: BlockCache): Promise<SearchIndex> {
  const path = join(buildDir, SEARCH_INDEX_FILE);
  if (pages) return SearchIndex.paged(path, pages, cache);
  return new SearchIndex(readSearchIndexBuffer(await readFile(path), path), cache);
}
