/**
 * The vocabulary table of docs/api.md ("One vocabulary"), rendered from the OpenAPI document
 * (itself generated from the zod schemas): for each concept, the field that carries it, its
 * form and the operations using it. `npx tsx scripts/vocabulary.ts --write` rewrites the table
 * between its markers; test/contract/vocabulary.test.ts fails when the committed one drifts
 * and checks the naming rules over the same fields.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderOpenApi } from '../service/openapi.ts';

type Json = any;

/** One field of an operation: where it is and its path from there (`licences[].uprn`). */
export interface ApiField { op: string; route: string; where: 'path' | 'query' | 'body' | 'answer'; path: string; name: string; schema: Json }

/** Every parameter, body field and 200-answer field of every operation of `doc`. */
export function apiFields(doc: Json): ApiField[] {
  const deref = (s: Json): Json => (s?.$ref ? deref(s.$ref.slice(2).split('/').reduce((n: Json, k: string) => n[k], doc)) : s);
  const out: ApiField[] = [];
  const walk = (base: Omit<ApiField, 'path' | 'name' | 'schema'>, schema: Json, path: string, seen: Set<Json>): void => {
    const s = deref(schema);
    if (!s || typeof s !== 'object' || seen.has(s)) return;
    const inner = new Set(seen).add(s);
    for (const [name, sub] of Object.entries<Json>(s.properties ?? {})) {
      const p = path ? `${path}.${name}` : name;
      out.push({ ...base, path: p, name, schema: deref(sub) });
      walk(base, sub, p, inner);
    }
    for (const k of ['items', 'additionalProperties']) if (s[k] && typeof s[k] === 'object') walk(base, s[k], `${path}[]`, inner);
    for (const k of ['anyOf', 'oneOf', 'allOf']) for (const sub of s[k] ?? []) walk(base, sub, path, inner);
  };
  for (const [route, ops] of Object.entries<Json>(doc.paths)) {
    for (const [method, o] of Object.entries<Json>(ops)) {
      const base = { op: o.operationId as string, route: `${method.toUpperCase()} ${route}` };
      for (const p of o.parameters ?? []) if (p.in !== 'header') out.push({ ...base, where: p.in, path: p.name, name: p.name, schema: deref(p.schema) });
      const body = o.requestBody?.content?.['application/json']?.schema;
      if (body) walk({ ...base, where: 'body' }, body, 'body', new Set());
      walk({ ...base, where: 'answer' }, o.responses['200'].content['application/json'].schema, '', new Set());
    }
  }
  return out;
}

/** The concepts the table lists: the field names that carry each, as input, as answer, or both. */
export const CONCEPTS: { concept: string; fields: string[]; side: 'input' | 'answer' | 'both'; except?: string[] }[] = [
  { concept: 'a property (UPRN)', fields: ['uprn'], side: 'both' },
  { concept: 'a home\'s type, asked', fields: ['property_type'], side: 'input' },
  { concept: 'a home\'s type, answered', fields: ['property_type'], side: 'answer' },
  { concept: 'built form', fields: ['build_form'], side: 'answer' },
  { concept: 'a point', fields: ['lat', 'lng', 'latitude', 'longitude'], side: 'both' },
  // STR reviews' ratings.location is Airbnb's 0–5 score of the place, not a place.
  { concept: 'the place answered for', fields: ['location', 'location_label'], side: 'answer', except: ['ratings.location'] },
  // The HMO valuation's gross_rent_pcm.total is the spec's rent sum, not a count.
  { concept: 'all matches across pages', fields: ['total', 'total_pages'], side: 'answer', except: ['gross_rent_pcm.total'] },
  { concept: 'a sample size', fields: ['sample_size', 'count'], side: 'answer' },
];

const typeText = (s: Json): string => {
  if (s.anyOf) return s.anyOf.map(typeText).join(' or ');
  if (s.type === 'null') return 'null';
  if (s['x-categories']) return `any type name → ${s['x-categories'].join('\\|')}`;
  if (s.enum) return s.enum.filter((v: unknown) => v !== null).join('\\|') + ([s.type].flat().includes('null') ? ' or null' : '');
  if (s.type === 'object') return 'object';
  const t = [s.type ?? 'any'].flat();
  return t.filter((x: string) => x !== 'null').join(' or ') + (t.includes('null') ? ' or null' : '');
};

export function renderVocabulary(doc: Json = JSON.parse(renderOpenApi())): string {
  const fields = apiFields(doc);
  const rows: string[] = ['| Concept | Field | Form | Operations |', '|---|---|---|---|'];
  for (const c of CONCEPTS) {
    for (const name of c.fields) {
      const byForm = new Map<string, Set<string>>();
      for (const f of fields) {
        if (f.name !== name || c.except?.some((e) => f.path.endsWith(e))) continue;
        if (c.side === 'input' && f.where === 'answer') continue;
        if (c.side === 'answer' && f.where !== 'answer') continue;
        const form = `${f.where === 'answer' ? 'answer' : 'input'}: ${typeText(f.schema)}`;
        (byForm.get(form) ?? byForm.set(form, new Set()).get(form)!).add(f.op);
      }
      for (const [form, ops] of [...byForm].sort(([a], [b]) => a.localeCompare(b))) {
        rows.push(`| ${c.concept} | \`${name}\` | ${form} | ${[...ops].sort().join(', ')} |`);
      }
    }
  }
  return `${rows.join('\n')}\n`;
}

export const API_DOC = resolve(import.meta.dirname, '../docs/api.md');
export const BEGIN = '<!-- vocabulary table: generated by `npx tsx scripts/vocabulary.ts --write`; do not edit -->';
export const END = '<!-- end of vocabulary table -->';

/** docs/api.md with its table replaced by `table`. */
export function withTable(text: string, table: string): string {
  const a = text.indexOf(BEGIN);
  const b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error(`docs/api.md has no vocabulary table markers (${BEGIN})`);
  return `${text.slice(0, a + BEGIN.length)}\n${table}${text.slice(b)}`;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename) && process.argv.includes('--write')) {
  writeFileSync(API_DOC, withTable(readFileSync(API_DOC, 'utf8'), renderVocabulary()));
  console.log(`wrote the vocabulary table of ${API_DOC}`);
}
