import { describe, expect, it } from 'vitest';
import { LOOKUP_FILES, isAsciiKey, lookupSql } from '../../lib/files/lookup-tables-format.ts';
import { QUERIES, STATEMENTS } from '../../service/store/queries.ts';
import { storeSql } from '../../service/store/store.ts';

/** How a declared kind is stored in a keyed-rows file: what the service's decoder makes of it (written out here). */
const STORED = { int: 'num', float: 'num', string: 'text', date: 'text', bool: 'bool' } as Record<string, string>;

describe('the lookup files\' columns (lib/files/lookup-tables-format.ts)', () => {
  for (const [name, spec] of Object.entries(LOOKUP_FILES)) {
    it(`${name}: the key and columns of ${spec.query} as service/store/queries.ts declares them, in the query's order`, () => {
      const decl = QUERIES[spec.query].columns as Record<string, string>;
      expect([spec.key.name, ...spec.columns.map((c) => c.name)]).toEqual(Object.keys(decl));
      const kinds = [spec.key, ...spec.columns].map((c) => c.kind);
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

  it('isAsciiKey: ASCII only', () => {
    expect(isAsciiKey('BS1 4DJ')).toBe(true);
    expect(isAsciiKey('sector:BS1 4:D')).toBe(true);
    expect(isAsciiKey('')).toBe(true);
    expect(isAsciiKey('É1 1AA')).toBe(false);
    expect(isAsciiKey('\u{1F600}')).toBe(false);
  });
});
