/**
 * Property-based fuzzing of every endpoint over a real server and a real published build:
 * parameters and bodies drawn from the OpenAPI document (valid values, values from the
 * build, values just outside the documented bounds, garbage, unknown and repeated keys,
 * malformed JSON). No answer may be a 500; every 4xx is a well-formed problem+json; a 503 only
 * ever says `data_unavailable`. FUZZ_CASES sets the cases per endpoint (CI: 150;
 * `make reliability`: 10,000).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../service/openapi.ts';
import { publishSynthBuild } from '../support/published.ts';
import { call, startTestServer, type TestServer } from './support.ts';

const CASES = Number(process.env.FUZZ_CASES ?? 150);

interface ParamSchema {
  type?: string;
  enum?: unknown[];
  examples?: unknown[];
  /** Every name a vocabulary parameter accepts (property_type; schemas/api/property-type.ts). */
  'x-accepts'?: string[];
  minimum?: number;
  maximum?: number;
  pattern?: string;
  items?: ParamSchema;
  properties?: Record<string, ParamSchema>;
  required?: string[];
}
interface Param { name: string; in: 'query' | 'path'; schema: ParamSchema }
interface Op { method: 'GET' | 'POST'; path: string; params: Param[]; body?: ParamSchema }

const doc = buildOpenApi() as { paths: Record<string, Record<string, { parameters?: Param[]; requestBody?: { content: Record<string, { schema: ParamSchema }> } }>> };
const OPS: Op[] = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([m, op]) => ({
    method: m.toUpperCase() as 'GET' | 'POST',
    path,
    params: op.parameters ?? [],
    body: op.requestBody?.content['application/json']?.schema,
  })),
);

/** Real values from the build, by parameter name, so fuzzing also reaches the handlers' own logic. */
const real: Record<string, string[]> = {};

const GARBAGE = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '-1', '0', '-0', '1e309', '1e-400', 'NaN', 'Infinity', '-Infinity', '0x10', '1.5', '99999999999999999999999',
    'null', 'undefined', 'true', '[]', '{}', '%', '%zz', '../..', '\u0000', '\ud800', 'A'.repeat(3000), 'SW1A 1AA', 'BS1', 'BS1 4', ',', '1,2', '1,2,3'),
  fc.double().map(String),
  fc.integer().map(String),
);

/** A value for a parameter: usually a valid one (from the build, the enum, the documented range), often not. */
function fromSchema(name: string, s: ParamSchema): fc.Arbitrary<string> {
  const valid: fc.Arbitrary<string>[] = [];
  if (real[name]?.length) valid.push(fc.constantFrom(...real[name]!));
  if (s.enum?.length) valid.push(fc.constantFrom(...s.enum.map(String)));
  if (s['x-accepts']?.length) valid.push(fc.constantFrom(...s['x-accepts']), fc.constantFrom(...s['x-accepts']).map((n) => n.toUpperCase().replace('-', ' ')));
  if (s.examples?.length) valid.push(fc.constantFrom(...s.examples.map(String)));
  if (s.type === 'integer' || s.type === 'number') {
    const min = s.minimum ?? -1e6;
    const max = s.maximum ?? 1e6;
    // Within the documented bounds, and a little beyond them on either side.
    valid.push((s.type === 'integer' ? fc.integer({ min: Math.ceil(min) - 1, max: Math.floor(max) + 1 }) : fc.double({ min: min - 0.5, max: max + 0.5, noNaN: true })).map(String));
  }
  if (s.type === 'boolean') valid.push(fc.constantFrom('true', 'false', 'TRUE', '1'));
  if (s.type === 'array' && s.items) return fc.array(fromSchema(name, s.items), { maxLength: 4 }).map((a) => a.join(','));
  if (valid.length === 0) return GARBAGE;
  return fc.oneof({ weight: 1, arbitrary: GARBAGE }, { weight: 5, arbitrary: fc.oneof(...valid) });
}

/** A JSON value for a body field: usually of the documented kind, now and then any JSON. */
function bodyValue(name: string, s: ParamSchema): fc.Arbitrary<unknown> {
  let typed: fc.Arbitrary<unknown>;
  if (s.type === 'array' && s.items?.properties) typed = fc.array(bodyObject(s.items), { minLength: 1, maxLength: 4 });
  else if (s.type === 'integer' || s.type === 'number') typed = fromSchema(name, s).map((v) => (Number.isFinite(Number(v)) && v.trim() !== '' ? Number(v) : v));
  else if (s.type === 'boolean') typed = fc.boolean();
  else typed = fromSchema(name, s);
  return fc.oneof({ weight: 8, arbitrary: typed }, { weight: 1, arbitrary: fc.jsonValue() });
}

const LOCATION_FORMS = [['uprn'], ['postcode'], ['lat', 'lng']];

/**
 * A body object: the required fields usually present, the others at random; where the body
 * takes a location, usually exactly one form of it (the rule every such endpoint enforces).
 */
function bodyObject(s: ParamSchema): fc.Arbitrary<Record<string, unknown>> {
  const props = s.properties ?? {};
  const required = s.required ?? [];
  const record = fc.record(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, bodyValue(k, v)])), { requiredKeys: [] });
  const located = 'lat' in props && 'uprn' in props;
  return fc.tuple(record, fc.nat(9), fc.nat(LOCATION_FORMS.length - 1), fc.tuple(...Object.entries(props).map(([k, v]) => bodyValue(k, v)))).map(([o, dice, form, all]) => {
    if (dice === 0) return o; // any subset of the fields
    const out: Record<string, unknown> = { ...o };
    Object.keys(props).forEach((k, i) => {
      if (required.includes(k) && !(k in out)) out[k] = all[i];
    });
    if (located && dice > 1) {
      const keep = LOCATION_FORMS[form]!;
      for (const k of ['uprn', 'postcode', 'lat', 'lng']) {
        if (!keep.includes(k)) delete out[k];
        else if (!(k in out)) out[k] = all[Object.keys(props).indexOf(k)];
      }
    }
    return out;
  });
}

function request(op: Op): fc.Arbitrary<{ path: string; body?: string; contentType?: string }> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  // A segment: any text, encoded (a lone surrogate becomes U+FFFD on the way), or raw bytes
  // that are not valid percent-encoding or UTF-8.
  const segment = (p: Param) => fc.oneof(
    { weight: 8, arbitrary: fromSchema(p.name, p.schema).map((v) => encodeURIComponent(Buffer.from(v, 'utf8').toString('utf8'))) },
    { weight: 1, arbitrary: fc.constantFrom('%FF', '%ED%A0%80', '%C0%AF', '%00', '%2F..%2F', '%', '%zz', '12%', '%E2%82') },
  );
  const pathArb = fc.tuple(...pathParams.map(segment)).map((vals) =>
    pathParams.reduce((path, p, i) => path.replace(`{${p.name}}`, vals[i]!), op.path),
  );
  // Each documented parameter at most once (a random subset), then now and then a repeated or
  // an unknown one.
  const queryArb = fc.tuple(
    fc.subarray(queryParams).chain((ps) => fc.tuple(...ps.map((p) => fromSchema(p.name, p.schema).map((v) => [p.name, v] as [string, string])))),
    fc.oneof(
      { weight: 5, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...queryParams.map((p) => p.name), 'unknown', 'api_key', ''), GARBAGE) },
    ),
  ).map(([pairs, extra]) => new URLSearchParams([...pairs, ...(extra ? [extra] : [])]).toString());
  const bodyArb: fc.Arbitrary<{ body?: string; contentType?: string }> = op.body
    ? fc.oneof(
        { weight: 6, arbitrary: bodyObject(op.body).map((o) => ({ body: JSON.stringify(o), contentType: 'application/json' })) },
        { weight: 1, arbitrary: fc.jsonValue().map((v) => ({ body: JSON.stringify(v), contentType: 'application/json' })) },
        { weight: 1, arbitrary: fc.string().map((t) => ({ body: t, contentType: 'application/json' })) },
        { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', '').map((ct) => ({ body: '{"lat":51.45}', contentType: ct })) },
      )
    : fc.constant({});
  return fc.tuple(pathArb, queryArb, bodyArb).map(([path, query, b]) => ({ path: `/v1${path}${query ? `?${query}` : ''}`, ...b }));
}

let s: TestServer;
let key: string;

beforeAll(async () => {
  s = await startTestServer();
  const { build_id } = await publishSynthBuild(s.dataDir, { addresses: 2000, seed: 11 });
  ({ key } = await s.account('enterprise', { limit: 1_000_000_000, windowMs: 10_000 }));
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const dir = join(s.dataDir, 'builds', build_id);
  const col = async (sql: string) => ((await conn.runAndReadAll(sql)).getRowsJS() as unknown[][]).map((r) => String(r[0]));
  real.uprn = await col(`SELECT uprn FROM read_parquet('${dir}/properties.parquet') USING SAMPLE 50 ROWS`);
  real.postcode = await col(`SELECT postcode FROM read_parquet('${dir}/postcodes.parquet') WHERE lat IS NOT NULL USING SAMPLE 30 ROWS`);
  real.outcode = await col(`SELECT DISTINCT outcode FROM read_parquet('${dir}/postcodes.parquet') WHERE outcode IS NOT NULL`);
  real.code = [...real.outcode, ...(await col(`SELECT DISTINCT sector FROM read_parquet('${dir}/postcodes.parquet') WHERE sector IS NOT NULL LIMIT 20`))];
  real.lat = await col(`SELECT lat FROM read_parquet('${dir}/postcodes.parquet') WHERE lat IS NOT NULL USING SAMPLE 20 ROWS`);
  real.lng = await col(`SELECT lng FROM read_parquet('${dir}/postcodes.parquet') WHERE lng IS NOT NULL USING SAMPLE 20 ROWS`);
  real.q = ['12 high st', 'flat 2', 'BS1', 'mill rd', ...real.postcode.slice(0, 5)];
  real.polygon = ['-2.6,51.4,-2.5,51.4,-2.5,51.5', '-2.6,51.4,-2.5,51.4', '1,2,3,4,5,6,7,8'];
  conn.closeSync();
  db.closeSync();
}, 120_000);

afterAll(() => s?.stop());

describe(`fuzzing every endpoint (${CASES} cases each)`, () => {
  it('has all 28 endpoints to fuzz', () => {
    expect(OPS).toHaveLength(28);
  });

  for (const op of OPS) {
    it(`${op.method} ${op.path}: never a 500; every rejection a well-formed problem`, async () => {
      const seen = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(request(op), async (r) => {
          const headers: Record<string, string> = { authorization: `Bearer ${key}` };
          if (r.contentType) headers['content-type'] = r.contentType;
          const res = await call(s.base, op.method, r.path, { headers, ...(r.body !== undefined ? { body: r.body } : {}) });
          seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
          expect(res.status, `${op.method} ${r.path} ${r.body ?? ''} → ${res.text.slice(0, 300)}`).not.toBe(500);
          expect(res.status).toBeLessThan(600);
          if (res.status >= 400) {
            expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
            expect(res.json).toMatchObject({ status: res.status, title: expect.any(String), detail: expect.any(String), type: expect.any(String) });
            if (res.status === 503) expect(res.json.code).toBe('data_unavailable');
          }
        }),
        { numRuns: CASES, seed: 20261121 },
      );
      if (process.env.FUZZ_VERBOSE) console.log(op.method, op.path, JSON.stringify([...seen].sort((a, b) => a[0] - b[0])));
      // Fuzzing that never got past validation would test nothing of the handlers.
      if (CASES >= 100 && op.params.length + (op.body ? 1 : 0) > 0) expect([...seen.keys()].some((k) => k < 300 || k === 404 || k === 503), JSON.stringify([...seen])).toBe(true);
    }, 600_000);
  }
});
