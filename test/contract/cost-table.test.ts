/**
 * The route registry's credit costs are the contract: the spec's table for the ten it
 * lists, DESIGN.md §6 for the rest. The expected tables are written out here and checked
 * against the reference documents in ../shared: skipped, saying so, where they are absent,
 * except in CI (CI=true), where their absence fails this file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { hasShared, SHARED_DIR } from '../support/raw.ts';

const SPEC_REL = 'spec/000_c4bf7f7059bbbbf7.txt';
const SPEC = join(SHARED_DIR, SPEC_REL);
const DESIGN = join(SHARED_DIR, 'DESIGN.md');

/** The spec's "Credit cost per call" table. */
const SPEC_COSTS: Record<string, number> = {
  'GET /addresses/search': 1,
  'GET /properties/{uprn}': 1,
  'GET /valuations/{uprn}/sale': 3,
  'GET /valuations/{uprn}/hmo': 5,
  'POST /valuations/str-estimate': 50,
  'GET /str/market': 3,
  'POST /valuations/development-gdv': 5,
  'GET /risks/{uprn}': 8,
  'GET /rents/long-term': 2,
  'GET /account/usage': 0,
};

/** DESIGN.md §6, all 28. */
const DESIGN_COSTS: Record<string, number> = {
  'GET /addresses/search': 1,
  'GET /properties/{uprn}': 1,
  'GET /properties/{uprn}/sales': 1,
  'GET /properties/{uprn}/epc': 1,
  'GET /postcodes/{postcode}': 1,
  'GET /valuations/{uprn}/sale': 3,
  'GET /valuations/{uprn}/rental': 3,
  'GET /valuations/{uprn}/hmo': 5,
  'POST /valuations/development-gdv': 5,
  'GET /prices/comparables': 5,
  'GET /prices/trends': 2,
  'GET /rents/long-term': 2,
  'GET /rents/hmo': 2,
  'GET /yields': 2,
  'POST /valuations/str-estimate': 50,
  'GET /str/market': 3,
  'GET /str/listings': 3,
  'GET /listings': 1,
  'GET /sourcing/deals': 5,
  'GET /areas/{code}': 2,
  'GET /crime': 2,
  'GET /schools': 2,
  'GET /risks/{uprn}': 8,
  'GET /flood-risk': 2,
  'GET /planning/constraints': 2,
  'GET /hmo/licences': 2,
  'GET /account': 0,
  'GET /account/usage': 0,
};

const registry = Object.fromEntries(V1_ROUTES.map((r) => [`${r.method} ${r.path}`, r.cost]));

describe('credit cost table', () => {
  it('declares exactly the 28 endpoints of DESIGN.md §6 with their costs', () => {
    expect(V1_ROUTES).toHaveLength(28);
    expect(registry).toEqual(DESIGN_COSTS);
  });

  it("charges the spec's cost for every operation in the spec's table", () => {
    for (const [op, cost] of Object.entries(SPEC_COSTS)) expect(registry[op], op).toBe(cost);
  });

  it('operation ids are unique', () => {
    expect(new Set(V1_ROUTES.map((r) => r.operationId)).size).toBe(28);
  });

  describe.skipIf(!hasShared(SPEC_REL, { pin: true }))('against the spec document', () => {
    it("the spec's table is the one written above", () => {
      const text = readFileSync(SPEC, 'utf8');
      const section = text.slice(text.indexOf('### Credit cost per call'), text.indexOf('Cost ranges:'));
      const rows = [...section.matchAll(/^\| (GET|POST) (\S+) \| (\d+|free) \|$/gm)].map((m) => [`${m[1]} ${m[2]}`, m[3] === 'free' ? 0 : Number(m[3])]);
      expect(Object.fromEntries(rows)).toEqual(SPEC_COSTS);
    });
  });

  describe.skipIf(!hasShared('DESIGN.md', { pin: true }))('against DESIGN.md', () => {
    it("DESIGN.md §6's table is the one written above", () => {
      const rows = [...readFileSync(DESIGN, 'utf8').matchAll(/^\| \d+ \| (GET|POST) (\S+) \| (\d+) \|/gm)].map((m) => [`${m[1]} ${m[2]}`, Number(m[3])]);
      expect(rows).toHaveLength(28);
      expect(Object.fromEntries(rows)).toEqual(DESIGN_COSTS);
    });
  });
});
