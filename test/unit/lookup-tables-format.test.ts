import { describe, expect, it } from 'vitest';
import { LOOKUP_FILES, isAsciiKey, lookupMetaMismatch, lookupSql } from '../../lib/files/lookup-tables-format.ts';
import type { KeyedRowsMeta } from '../../lib/files/keyed-rows-file.ts';
import { QUERIES, STATEMENTS } from '../../service/store/queries.ts';
import { storeSql } from '../../service/store/store.ts';

/** How a declared kind is stored in a keyed-rows file: what the service's decoder makes of it (written out here). */
const STORED = { int: 'num', float: 'num', string: 'text', date: 'text', bool: 'bool' } as Record<string, string>;

describe('the lookup files\' columns (lib/files/lookup-tables-format.ts)', () => {
  for (const [name, spec] of Object.entries(LOOKUP_FILES)) {
    it(`${name}: the key and columns of ${spec.query} as service/store/queries.ts declares them, in the query's order`, () => {
      const decl = QUERIES[spec.query].columns as Record<string, string>;
      expect([spec.key.name, ...spec.columns.map((c) => c.name)]).toEqual(Object.keys(decl));
      // A dict column is text as the service decodes it.
      const kinds = [spec.key, ...spec.columns].map((c) => (c.kind === 'dict' ? 'text' : c.kind));
      expect(kinds).toEqual(Object.values(decl).map((k) => STORED[k.replace('?', '')]));
      // The key is never null in the service's table (its declaration says so, or the ETL leaves the row out as the heap does).
      expect(decl[spec.key.name]!.endsWith('?')).toBe(false);
    });

    it(`${name}: the service and the ETL read one text of its SQL`, () => {
      for (const s of [spec.query, ...spec.before, ...spec.after]) {
        expect(s in QUERIES || s in STATEMENTS, s).toBe(true);
        expect(storeSql(s)).toBe(lookupSql(s));
      }
      // Sorted by key in SQL, so the writer takes the rows as they come.
      expect(lookupSql(spec.query)).toMatch(new RegExp(`ORDER BY ${spec.key.name}\\b`));
    });
  }

  it('lookupMetaMismatch: a text column where the spec has a dict (a file written before) is the same table; anything else is not', () => {
    const spec = LOOKUP_FILES.epc;
    expect(spec.columns.some((c) => c.kind === 'dict')).toBe(true);
    const meta = (columns: KeyedRowsMeta['columns'], over: Partial<KeyedRowsMeta> = {}): KeyedRowsMeta => ({ key: { ...spec.key }, columns, unique: spec.unique, rows: 1, pages: 1, ...over });
    const asWritten = spec.columns.map((c) => ({ ...c }));
    const asText = spec.columns.map((c) => ({ name: c.name, kind: c.kind === 'dict' ? ('text' as const) : c.kind }));
    expect(lookupMetaMismatch(meta(asWritten), spec)).toBeNull();
    expect(lookupMetaMismatch(meta(asText), spec)).toBeNull();
    // A number where the spec has text, a column renamed or missing, another key or uniqueness: not this table.
    const numbered = asWritten.map((c, i) => (i === 3 ? { name: c.name, kind: 'num' as const } : c));
    expect(lookupMetaMismatch(meta(numbered), spec)).toMatch(/holds/);
    expect(lookupMetaMismatch(meta(asWritten.map((c, i) => (i === 0 ? { ...c, name: 'other' } : c))), spec)).toMatch(/other/);
    expect(lookupMetaMismatch(meta(asWritten.slice(1)), spec)).toMatch(/holds/);
    expect(lookupMetaMismatch(meta(asWritten, { key: { name: 'postcode', kind: 'text' } }), spec)).toMatch(/postcode/);
    expect(lookupMetaMismatch(meta(asWritten, { unique: !spec.unique }), spec)).toMatch(/holds/);
  });

  it('isAsciiKey: ASCII only', () => {
    expect(isAsciiKey('BS1 4DJ')).toBe(true);
    expect(isAsciiKey('sector:BS1 4:D')).toBe(true);
    expect(isAsciiKey('')).toBe(true);
    expect(isAsciiKey('É1 1AA')).toBe(false);
    expect(isAsciiKey('\u{1F600}')).toBe(false);
  });
});
