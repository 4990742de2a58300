/**
 * One vocabulary (DESIGN.md §3, docs/api.md "One vocabulary"): walks every operation of the
 * generated OpenAPI document, its parameters, body and 200 answer, and checks the naming rules,
 * so a new endpoint cannot drift. Where the spec names a field its form wins; those exceptions
 * are listed below with the reason.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROPERTY_TYPE_NAMES } from '../../schemas/api/property-type.ts';
import { renderOpenApi } from '../../service/openapi.ts';
import { API_DOC, apiFields, renderVocabulary, withTable, type ApiField } from '../../scripts/vocabulary.ts';

type Json = any;
type Field = ApiField;
const doc: Json = JSON.parse(renderOpenApi());
const deref = (s: Json): Json => (s?.$ref ? deref(s.$ref.slice(2).split('/').reduce((n: Json, k: string) => n[k], doc)) : s);
const FIELDS: Field[] = apiFields(doc);
const inputs = FIELDS.filter((f) => f.where !== 'answer');
const where = (fs: Field[]) => fs.map((f) => `${f.op} ${f.where} ${f.path}`).sort();

/** Field names the spec forces although the vocabulary uses another: field → operations, with why. */
const SPEC_EXCEPTIONS: Record<string, { ops: string[]; why: string }> = {
  latitude: { ops: ['searchAddresses'], why: 'the spec\'s address match names latitude/longitude' },
  longitude: { ops: ['searchAddresses'], why: 'the spec\'s address match names latitude/longitude' },
};
/** Synonyms refused, each with the vocabulary's one name for the concept. */
const SYNONYMS: Record<string, string> = {
  built_form: 'build_form (the spec\'s name in the property record)',
  total_count: 'total (all matches across pages)',
  latitude: 'lat', longitude: 'lng', lon: 'lng', long: 'lng',
  location_name: 'location_label', build_type: 'property_type', type_of_property: 'property_type',
};

describe('one vocabulary over every operation', () => {
  it('finds the operations and their fields', () => {
    expect(new Set(FIELDS.map((f) => f.op)).size).toBe(Object.values<Json>(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0));
    expect(FIELDS.filter((f) => f.name === 'property_type' && f.where !== 'answer').length).toBeGreaterThanOrEqual(7);
  });

  it('every property_type input accepts the shared names (any case) and maps them to the endpoint\'s categories', () => {
    const inputsPt = inputs.filter((f) => f.name === 'property_type');
    for (const f of inputsPt) {
      const what = `${f.op} ${f.path}`;
      expect(f.schema.type, what).toBe('string');
      expect(f.schema.enum, `${what}: an enum refuses the other endpoints' names`).toBeUndefined();
      const accepts: string[] = f.schema['x-accepts'];
      expect(accepts, `${what}: not built with propertyTypeParam`).toBeDefined();
      expect(accepts.every((n) => (PROPERTY_TYPE_NAMES as readonly string[]).includes(n)), what).toBe(true);
      // Every category the endpoint answers with is itself accepted, and a flat by any name always maps.
      for (const c of f.schema['x-categories'] as string[]) expect(accepts, what).toContain(c.toLowerCase());
      for (const n of ['flat', 'apartment', 'maisonette']) expect(accepts, what).toContain(n);
    }
  });

  it('every uprn input accepts a number and a numeric string', () => {
    const uprns = inputs.filter((f) => f.name === 'uprn');
    expect(uprns.length).toBeGreaterThan(15);
    for (const f of uprns) {
      const types = (f.schema.anyOf ?? [f.schema]).map((s: Json) => deref(s).type).sort();
      expect(types, `${f.op} ${f.where} ${f.path}`).toEqual(['integer', 'string']);
    }
  });

  it('a uprn in an answer is an integer, except the spec\'s string echoes', () => {
    const SPEC_STRING_ECHO = ['getSaleValuation', 'getHmoValuation'];
    const strings = FIELDS.filter((f) => f.where === 'answer' && f.name === 'uprn' && [f.schema.type].flat().includes('string'));
    expect(where(strings.filter((f) => !SPEC_STRING_ECHO.includes(f.op)))).toEqual([]);
  });

  it('coordinates are lat/lng and no known synonym is used, but where the spec names it', () => {
    const bad = FIELDS.filter((f) => SYNONYMS[f.name] !== undefined && !SPEC_EXCEPTIONS[f.name]?.ops.includes(f.op));
    expect(where(bad), bad.map((f) => `${f.name} → ${SYNONYMS[f.name]}`).join('; ')).toEqual([]);
  });

  it('docs/api.md holds the vocabulary table rendered from the schemas', () => {
    const committed = readFileSync(API_DOC, 'utf8');
    expect(committed, 'docs/api.md\'s vocabulary table is stale: npx tsx scripts/vocabulary.ts --write').toBe(withTable(committed, renderVocabulary(doc)));
    expect(renderVocabulary(doc)).toContain('| a property (UPRN) | `uprn` | input: string or integer |');
  });

  it('a location is an object, never a string', () => {
    // A place is an object (lat, lng, and the echo of how it was given); a label is location_label.
    // STR reviews' `ratings.location` is Airbnb's 0–5 score for the place, a number, not a place.
    // The spec's STR market answer alone names its label `location` ("string, location label").
    const bad = FIELDS.filter((f) => f.name === 'location' && f.schema.type === 'string' && f.op !== 'getStrMarket');
    expect(where(bad)).toEqual([]);
  });
});

