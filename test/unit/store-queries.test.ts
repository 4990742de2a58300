import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BaseKind } from '../../service/store/decode.ts';
import { QUERIES, STATEMENTS, type QueryDecl } from '../../service/store/queries.ts';
import { storeSql } from '../../service/store/store.ts';
import { PUBLISHED_TABLES } from '../../schemas/tables/index.ts';

/** The kinds a contract's DuckDB type may be read as (written out here, not taken from the code). */
const READS: Record<string, readonly BaseKind[]> = {
  VARCHAR: ['string', 'date'],
  DOUBLE: ['float'],
  FLOAT: ['float'],
  INTEGER: ['int'],
  BIGINT: ['int', 'bigint-as-string'],
  DATE: ['date'],
  BOOLEAN: ['bool'],
};

const SQL_DIR = join(import.meta.dirname, '../../service/store/sql');
/** The lookup tables' queries the ETL runs too, moved where both may read them. */
const SHARED_SQL_DIR = join(import.meta.dirname, '../../lib/files/lookup-sql');
const VALUATION_SQL_DIR = join(import.meta.dirname, '../../lib/valuation/sql');

describe('store query declarations (service/store/queries.ts)', () => {
  it('every SQL file is declared as a query or a statement', () => {
    const files = [SQL_DIR, SHARED_SQL_DIR, VALUATION_SQL_DIR].flatMap((d) => readdirSync(d)).filter((f) => f.endsWith('.sql')).map((f) => f.slice(0, -4)).sort();
    expect([...Object.keys(QUERIES), ...Object.keys(STATEMENTS)].sort()).toEqual(files);
  });

  it('each declares as many parameters as its SQL binds ($1…)', () => {
    const decls: [string, readonly string[]][] = [
      ...Object.entries(QUERIES).map(([n, d]) => [n, d.params] as [string, readonly string[]]),
      ...Object.entries(STATEMENTS),
    ];
    for (const [name, params] of decls) {
      const sql = storeSql(name).replace(/--.*$/gm, '');
      const bound = new Set([...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
      expect(bound.size, name).toBe(params.length);
    }
  });

  it("a column named as one of its table's has a kind that table's contract type allows (unless derived in the SQL)", () => {
    let checked = 0;
    for (const [name, d] of Object.entries(QUERIES) as [string, QueryDecl][]) {
      if (!d.table) continue;
      const contract = PUBLISHED_TABLES.find((t) => t.name === d.table);
      expect(contract, `${name}: table ${d.table}`).toBeDefined();
      for (const [column, kind] of Object.entries(d.columns)) {
        const c = contract!.columns.find((x) => x.name === column);
        if (!c || d.derived?.includes(column)) continue;
        expect(READS[c.type] ?? [], `${name}.${column}: ${c.type} read as ${kind}`).toContain(kind.replace('?', ''));
        checked++;
      }
      for (const column of d.derived ?? []) expect(Object.keys(d.columns), `${name}: derived ${column}`).toContain(column);
    }
    expect(checked).toBeGreaterThan(200);
  });
});
