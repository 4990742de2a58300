import { afterAll, describe, expect, it } from 'vitest';
import { readCsvRecords } from '../../../etl/sources/csv.ts';
import { RejectLog } from '../../../etl/sources/rejects.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);

async function read(name: string, text: string, gzip = false) {
  const rejects = new RejectLog();
  const out: { fields: string[]; line: number }[] = [];
  for await (const r of readCsvRecords(writeFixture(tmp.dir, name, text, gzip), rejects)) out.push(r);
  return { out, rejects };
}

describe('readCsvRecords', () => {
  it('numbers records by the line they start on, as grep -n does, across multi-line fields and empty lines', async () => {
    const text = 'h1,h2\r\n1,"a\r\nb\r\nc"\r\n\r\n2,"x\ny"\r\n3,z';
    const { out, rejects } = await read('multi.csv', text);
    expect(out.map((r) => [r.fields[0], r.line])).toEqual([['h1', 1], ['1', 2], ['2', 6], ['3', 8]]);
    expect(out[1]!.fields[1]).toBe('a\r\nb\r\nc');
    expect(rejects.total).toBe(0);
  });

  it('does not count a lone CR inside a field as a line', async () => {
    const { out } = await read('cr.csv', 'a,"x\ry"\nb,c\n');
    expect(out.map((r) => r.line)).toEqual([1, 2]);
  });

  it('counts a syntax error once, skips the record and keeps numbering right after it', async () => {
    const { out, rejects } = await read('bad.csv', 'a,b\n1,2"bad"\n3,"m\nn"\n4,5\n');
    expect(rejects.toJSON().by_reason).toEqual({ csv_syntax: 1 });
    expect(rejects.samples[0]!.line).toBe(2);
    expect(out.map((r) => [r.fields[0], r.line])).toEqual([['a', 1], ['3', 3], ['4', 5]]);
  });

  it('reads gzip, strips a BOM and handles CR-only files without a final newline', async () => {
    const gz = await read('g.csv.gz', '\uFEFFa,b\n1,2\n', true);
    expect(gz.out.map((r) => r.fields)).toEqual([['a', 'b'], ['1', '2']]);
    const cr = await read('cr-only.csv', 'a,b\r1,2\r3,4');
    expect(cr.out.map((r) => [r.fields[0], r.line])).toEqual([['a', 1], ['1', 2], ['3', 3]]);
  });
});
