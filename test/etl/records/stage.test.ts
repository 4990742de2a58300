import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RECORD_COLUMNS, PROPERTY_RECORDS_FILE, RecordFile } from '../../../schemas/record-file-format.ts';
import { stagedContext } from '../../support/region.ts';

describe('property-records stage', () => {
  it('writes every properties row, every served column equal to the table, found by uprn', async () => {
    const ctx = await stagedContext(2000, 11); // runs every stage, this one included
    expect(ctx.artifacts.property_records?.file).toBe(PROPERTY_RECORDS_FILE);
    const path = join(ctx.buildDir, PROPERTY_RECORDS_FILE);
    const file = new RecordFile(readFileSync(path), path);
    const cols = PROPERTY_RECORD_COLUMNS.map((c) => c.name);
    const rows = (await ctx.conn.runAndReadAll(`SELECT uprn, ${cols.join(', ')} FROM properties ORDER BY uprn`)).getRowObjectsJson();
    expect(rows.length).toBeGreaterThan(1500);
    expect(file.n).toBe(rows.length);
    let withNulls = 0;
    for (const r of rows) {
      const got = file.get(Number(r.uprn));
      const want: Record<string, unknown> = { uprn: Number(r.uprn) };
      for (const c of PROPERTY_RECORD_COLUMNS) want[c.name] = r[c.name] === null ? null : c.kind === 'num' || c.kind === 'small' ? Number(r[c.name]) : r[c.name];
      expect(got).toEqual(want);
      if (Object.values(want).includes(null)) withNulls++;
    }
    expect(withNulls).toBeGreaterThan(0); // nulls were exercised, not only full rows
  });
});
