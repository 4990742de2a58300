import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatPostcode, POSTCODE_RE, toIsoDate } from '../../../schemas/sources/fields.ts';
import { stageSql } from '../../../etl/pipeline/sql.ts';

/** The SQL helpers the native checks use, each against the JS function it stands for. */
let conn: DuckDBConnection;
beforeAll(async () => {
  conn = await (await DuckDBInstance.create(':memory:')).connect();
  for (const m of ['native_macro_js_trim', 'native_macro_js_number', 'native_macro_format_postcode', 'native_macro_postcode_ok',
    'native_macro_date_shape', 'native_macro_any_date', 'native_macro_opt_str']) await stageSql('10-staging/10-stage-sources/native').run(conn, m);
});

async function sql(expr: string, v: string): Promise<unknown> {
  return (await conn.runAndReadAll(`SELECT ${expr} AS r`, { v })).getRowObjectsJson()[0]!.r;
}

const SPACES = ['\u00a0', '\u3000', '\u2003', '\ufeff', '\t', '\v', '\f', '\r\n', '\u2028', '\u202f'];

describe('native SQL helpers agree with the JS they replace', () => {
  it('js_trim is String.prototype.trim', async () => {
    // Cells with nothing to strip take the macro's short way; the rest its replacement.
    for (const v of ['', 'a', 'ab', 'a b', ' a ', 'a ', ' a', '  ', '\n', 'é', ...SPACES.map((s) => `${s}a b${s}`), ...SPACES.map((s) => `a${s}`),
      '\u200ba\u200b' /* zero-width space: not white space */]) {
      expect(await sql('js_trim($v)', v), JSON.stringify(v)).toBe(v.trim());
    }
  });

  it('js_number is Number() (NaN as NULL; Infinity, refused by zod either way, as NULL or infinite)', async () => {
    const cases = ['12', ' 12 ', '+5', '-.5', '1.', '1e3', '1E+05', '0x1A', '0b101', '0o17', '1_000', '1e400', 'abc', '',
      '\u00a07\u3000', '0x', '-0x1A', '00012', '5e', '1,000', '12abc', '.', '-',
      // Plain decimals (the short way), and nearly so.
      '0', '000', '7', '-0', '-7', '51.424619', '-2.491616', '0.1', '123456789012345', '1234567890123456', '99999999999999999999',
      '1.7976931348623157', '12 ', '١٢', '1.2.3', '--1', '-.5', '1.', '.1'];
    for (const v of cases) {
      const got = await sql('js_number($v)', v);
      const js = Number(v);
      if (Number.isNaN(js)) expect(got, JSON.stringify(v)).toBeNull();
      else if (!Number.isFinite(js)) expect(got, JSON.stringify(v)).toBe('Infinity');
      else expect(got, JSON.stringify(v)).toBe(js);
    }
  });

  it('format_postcode and postcode_ok are formatPostcode and POSTCODE_RE', async () => {
    for (const v of ['bs1 4dj', 'BS14DJ', 'BS1  1AA', ' ec1a\u00a01bb ', 'W1A 0AX', 'B', 'NOT A POSTCODE', 'SW1A2AAX', '',
      // Already canonical (the short way), and nearly so.
      'BS1 4DJ', 'EC1A 1BB', 'M1 1AE', 'BS1 4DJ ', ' BS1 4DJ', 'Bs1 4DJ', 'BS1 4DJX', 'BS1\t4DJ']) {
      const js = formatPostcode(v);
      expect(await sql('format_postcode($v)', v), JSON.stringify(v)).toBe(js);
      expect(await sql('postcode_ok(format_postcode($v))', v), JSON.stringify(v)).toBe(POSTCODE_RE.test(js));
    }
  });

  it('any_date is toIsoDate', async () => {
    const cases = ['2020-01-02', '2020-01-02 00:00', '2020-01-02T12:30:45', ' 2020-01-02 ', '02/01/2020', '02/01/2020 10:00',
      '2015-02-30', '2016-02-29', '2015-02-29', '2020-13-01', '31/04/2020', '2020-1-2', '20200102', '', 'x',
      // ISO with nothing to trim (the short way) and with something to trim or a bad time.
      '2020-01-02 00:00:00', '2015-02-30 00:00', '1900-02-29', '2000-02-29', '0000-01-01', '2020-01-02 ', '\t2020-01-02',
      '2020-01-02 24:99', '2020-01-02T1:00', '2020-01-02 00:00:0'];
    for (const v of cases) expect(await sql('any_date($v)', v), JSON.stringify(v)).toBe(toIsoDate(v) ?? null);
  });

  it('opt_str is optStr (blank → NULL, else trimmed)', async () => {
    for (const v of ['', ' ', '\u00a0', 'a', ' a ', '\ta b\u3000']) {
      const js = v.trim() === '' ? null : v.trim();
      expect(await sql('opt_str($v)', v), JSON.stringify(v)).toBe(js);
    }
  });
});
