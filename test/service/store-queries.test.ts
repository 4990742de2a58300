import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeColumns, type BaseKind } from '../../service/store/decode.ts';
import { QUERIES, STATEMENTS, type QueryName } from '../../service/store/queries.ts';
import { storeSql } from '../../service/store/store.ts';
import { windowEndDate } from '../../service/lookups/tables.ts';
import { publishSynthBuild } from '../support/published.ts';
import { tempDir } from '../support/tmp.ts';

/**
 * Every declared store query (service/store/queries.ts) against what DuckDB returns over a real
 * build (the ETL over a synthetic region, as the endpoint tests use): the result's columns are
 * exactly the declared ones, each of a DuckDB type its kind reads, and every row decodes (so no
 * NULL where the declaration says there is none). The DuckDB types allowed per kind are written
 * out here, not taken from the decoder.
 */
const TYPES: Record<BaseKind, RegExp> = {
  string: /^VARCHAR$/,
  int: /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)$/,
  float: /^(FLOAT|DOUBLE)$/,
  'bigint-as-string': /^(BIGINT|HUGEINT)$/,
  date: /^(DATE|VARCHAR)$/,
  bool: /^BOOLEAN$/,
};

const tmp = tempDir('pi-store-queries-');
let dir: string;
let db: DuckDBInstance;
let conn: DuckDBConnection;

beforeAll(async () => {
  const { build_id, manifest } = await publishSynthBuild(tmp.dir);
  dir = join(tmp.dir, 'builds', build_id);
  db = await DuckDBInstance.create(':memory:');
  conn = await db.connect();
  // The build's tables as BuildStore.open makes them.
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.parquet'))) {
    const t = f.slice(0, -'.parquet'.length);
    await conn.run(`CREATE VIEW ${t} AS SELECT * FROM read_parquet('${join(dir, f)}')`);
  }
  // The derived tables the lookups make when a build opens (service/lookups/tables.ts), kept (not dropped) to be read here.
  const end = windowEndDate({ id: build_id, dir, manifest: manifest as unknown as Record<string, unknown> }, 'price_paid');
  for (const s of Object.keys(STATEMENTS).filter((n) => !n.endsWith('_drop'))) {
    await conn.run(storeSql(s), s === 'lookup_area_counts_table' ? [end] : []);
  }
}, 600_000);
afterAll(() => {
  conn?.closeSync();
  db?.closeSync();
  tmp.cleanup();
});

describe('store query declarations over a real build', () => {
  for (const name of Object.keys(QUERIES) as QueryName[]) {
    it(`${name}: the declared columns, of their kinds' DuckDB types, every row decoding`, async () => {
      const decl = QUERIES[name];
      const params = name === 'property_by_uprn'
        ? [(await conn.runAndReadAll('SELECT min(uprn) AS u FROM properties')).getColumnsJS()[0]![0]]
        : name === 'designations_all' ? { path: join(dir, 'uprn_designations.parquet') } : [];
      const r = await conn.runAndReadAll(storeSql(name), params as never);
      const names = r.columnNames();
      const types = r.columnTypes().map(String);
      expect(r.currentRowCount, 'rows to check').toBeGreaterThan(0);
      const prefixed = 'prefixed' in decl ? decl.prefixed : undefined;
      const ignored = 'extraColumns' in decl;
      const seen = names.filter((c, i) => {
        const kind = (decl.columns as Record<string, string>)[c] ?? (prefixed && c.startsWith(prefixed.prefix) ? prefixed.kind : undefined);
        if (kind === undefined) {
          expect(ignored, `${c} (${types[i]}) is not declared`).toBe(true);
          return false;
        }
        expect(types[i], `${c} declared ${kind}`).toMatch(TYPES[kind.replace('?', '') as BaseKind]);
        return true;
      });
      expect(seen.filter((c) => c in decl.columns).sort(), 'declared columns').toEqual(Object.keys(decl.columns).sort());
      if (prefixed) expect(seen.some((c) => c.startsWith(prefixed.prefix))).toBe(true);
      expect(() => decodeColumns(name, decl, names, r.getColumnsJS())).not.toThrow();
    });
  }
});
