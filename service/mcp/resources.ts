/**
 * What an agent can read besides the tools: the request vocabulary and coverage notes (the
 * sections of docs/api.md that say how a place is given, which words mean what, and what
 * Wales and Scotland lack), the data dictionary, and the serving build's status with each
 * source's as-of date (`GET /v1/status`, unmetered).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import type { RestCaller } from './rest.ts';

const DOCS = resolve(import.meta.dirname, '../../docs');

/** The `##`/`###` sections of a Markdown page whose heading matches `heading`, each up to the next heading. */
export function markdownSections(markdown: string, heading: RegExp): string {
  const parts = markdown.split(/^(?=#{2,3} )/m);
  return parts.filter((p) => /^#{2,3} /.test(p) && heading.test(p.slice(0, p.indexOf('\n')))).join('\n').trim();
}

const VOCABULARY_SECTIONS = /^#{2,3} (Requests|One vocabulary|Scotland|Wales and Scotland)/;

interface ResourceDef extends Resource {
  read(rest: RestCaller): Promise<string>;
}

export const RESOURCES: readonly ResourceDef[] = [
  {
    uri: 'pi://docs/vocabulary',
    name: 'vocabulary',
    title: 'Request vocabulary and coverage notes',
    description: 'How a place is given (uprn, postcode, sector, outcode, lat/lng), the property-type words by concept, and what the registers of Wales and Scotland do not cover (from docs/api.md).',
    mimeType: 'text/markdown',
    read: async () => `# Vocabulary and coverage\n\n${markdownSections(await readFile(resolve(DOCS, 'api.md'), 'utf8'), VOCABULARY_SECTIONS)}\n`,
  },
  {
    uri: 'pi://docs/data-dictionary',
    name: 'data-dictionary',
    title: 'Data dictionary',
    description: 'Every published table and column: meaning, unit, source and null rules (docs/data-dictionary.md).',
    mimeType: 'text/markdown',
    read: () => readFile(resolve(DOCS, 'data-dictionary.md'), 'utf8'),
  },
  {
    uri: 'pi://build/status',
    name: 'build-status',
    title: 'Data build and as-of dates',
    description: 'The serving data build: its id, when it was built, and each source with its as-of date (GET /v1/status).',
    mimeType: 'application/json',
    read: async (rest) => {
      const reply = await rest({ method: 'GET', path: '/v1/status' });
      if (reply.status !== 200) throw new Error(`GET /v1/status answered ${reply.status}: ${reply.text.slice(0, 200)}`);
      return reply.text;
    },
  },
];
