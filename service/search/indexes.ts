import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PerBuild } from '../store/per-build.ts';
import { SearchIndex } from './engine.ts';
import { readSearchIndexBuffer, SEARCH_INDEX_FILE } from '../../schemas/search-index-format.ts';

/** Reads the build's published index without blocking the event loop on the file read. */
export async function loadSearchIndex(buildDir: string): Promise<SearchIndex> {
  const path = join(buildDir, SEARCH_INDEX_FILE);
  return new SearchIndex(readSearchIndexBuffer(await readFile(path), path));
}

/** The process's search index of the build being served (its query cache goes with it). */
export const searchIndexes = new PerBuild<SearchIndex>((b) => loadSearchIndex(b.dir));
